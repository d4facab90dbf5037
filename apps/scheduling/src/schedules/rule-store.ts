import { QueryTypes, type Sequelize } from 'sequelize';
import type { DayOverride, ScheduleRules, WeeklyWindow } from './schedule-rules';
import { parseLocalTime } from '../time/time-input';

/** "HH:MM:SS" from a time column, as minutes of the day (24:00:00 is 1440). */
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The schedules (weekly windows and overrides) of some resources, each in its location's zone. */
export async function loadRules(
  sequelize: Sequelize,
  resources: readonly { id: string; time_zone: string }[],
): Promise<Map<string, ScheduleRules>> {
  const ids = resources.map((r) => r.id);
  const windows = await sequelize.query<{ resource_id: string; weekday: number; start_time: string; end_time: string }>(
    'SELECT resource_id::text, weekday, start_time::text, end_time::text FROM weekly_windows WHERE resource_id = ANY($1::uuid[])',
    { bind: [ids], type: QueryTypes.SELECT },
  );
  const overrides = await sequelize.query<{ resource_id: string; local_date: string; closed: boolean; windows: { start: string; end: string }[] }>(
    'SELECT resource_id::text, local_date::text, closed, windows FROM date_overrides WHERE resource_id = ANY($1::uuid[])',
    { bind: [ids], type: QueryTypes.SELECT },
  );
  return new Map(
    resources.map((resource) => {
      const weekly: WeeklyWindow[] = windows
        .filter((w) => w.resource_id === resource.id)
        .map((w) => ({ weekday: w.weekday, start: minutesOf(w.start_time), end: minutesOf(w.end_time) }));
      const days = new Map<string, DayOverride>(
        overrides
          .filter((o) => o.resource_id === resource.id)
          .map((o) => [
            o.local_date,
            {
              closed: o.closed,
              windows: o.windows.map((w) => ({
                start: parseLocalTime(w.start, { endOfDay: false }) as number,
                end: parseLocalTime(w.end, { endOfDay: true }) as number,
              })),
            },
          ]),
      );
      return [resource.id, { zone: resource.time_zone, weekly, overrides: days }];
    }),
  );
}
