import { QueryTypes, type Transaction } from 'sequelize';
import { schedulingApi, schedulingFields, type schedulingV1 } from '@libs/contracts';
import { requirePermission, type CallContext } from '@libs/grpc';
import { checkVersion, FieldChecks, notFound, parseInput, requireUuid } from '@libs/validation';
import { recordEvent, writeTransaction } from '@libs/outbox';
import type { SchedulingDeps } from '../scheduling-deps';
import { findResource, type ResourceRow } from '../resources/resource-store';
import { checkWindows } from './schedule-rules';
import { formatLocalTime, timeChecks } from '../time/time-input';


export function ruleHandlers(deps: SchedulingDeps) {
  const { sequelize } = deps;

  async function schedule(id: string, transaction?: Transaction, lock = false): Promise<ResourceRow> {
    const resource = await findResource(sequelize, requireUuid(id, 'scheduleId'), transaction, lock);
    if (!resource) throw notFound('schedule');
    return resource;
  }

  async function weeklyRules(resource: ResourceRow, transaction?: Transaction): Promise<schedulingV1.WeeklyRules> {
    const windows = await sequelize.query<{ weekday: number; start_time: string; end_time: string }>(
      'SELECT weekday, start_time::text, end_time::text FROM weekly_windows WHERE resource_id = $1 ORDER BY weekday, start_time',
      { bind: [resource.id], type: QueryTypes.SELECT, transaction },
    );
    return {
      scheduleId: resource.id,
      timeZone: resource.time_zone,
      windows: windows.map((w) => ({ weekday: w.weekday, start: w.start_time.slice(0, 5), end: w.end_time.slice(0, 5) })),
      version: resource.rules_version,
    };
  }

  async function overridesOf(resourceId: string, from: string, to: string, transaction?: Transaction): Promise<schedulingV1.DateOverride[]> {
    const rows = await sequelize.query<{ local_date: string; closed: boolean; windows: schedulingV1.LocalWindow[]; version: number }>(
      `SELECT local_date::text, closed, windows, version FROM date_overrides
        WHERE resource_id = $1 AND ($2 = '' OR local_date >= $2::date) AND ($3 = '' OR local_date <= $3::date) ORDER BY local_date`,
      { bind: [resourceId, from, to], type: QueryTypes.SELECT, transaction },
    );
    return rows.map((row) => ({ scheduleId: resourceId, localDate: row.local_date, closed: row.closed, windows: row.windows, version: row.version }));
  }

  return {
    async getWeeklyRules(request: schedulingV1.GetWeeklyRulesRequest, context: CallContext): Promise<schedulingV1.GetWeeklyRulesResponse> {
      requirePermission(context, 'scheduling:browse');
      return { rules: await weeklyRules(await schedule(request.scheduleId)) };
    },

    /** Replaces the weekly windows: local wall-clock times of the location's zone, never converted to UTC. */
    async putWeeklyRules(request: schedulingV1.PutWeeklyRulesRequest, context: CallContext): Promise<schedulingV1.PutWeeklyRulesResponse> {
      const actor = requirePermission(context, 'scheduling:configure');
      parseInput(schedulingApi.weeklyRules, { windows: request.windows });
      const checks = new FieldChecks();
      const windows = checkWindows(checks, request.windows, 'windows', (w) => w.weekday);
      checks.throwIfAny();
      return writeTransaction(deps, undefined, async (transaction) => {
        const resource = await schedule(request.scheduleId, transaction, true);
        checkVersion('schedule', resource.rules_version, request.expectedVersion);
        const before = await weeklyRules(resource, transaction);
        await sequelize.query('DELETE FROM weekly_windows WHERE resource_id = $1', { bind: [resource.id], transaction });
        await sequelize.query(
          `INSERT INTO weekly_windows (resource_id, weekday, start_time, end_time)
           SELECT $1, w.day, w.start::time, w.finish::time FROM jsonb_to_recordset($2::jsonb) AS w(day int, start text, finish text)`,
          { bind: [resource.id, JSON.stringify(windows.map((w) => ({ day: w.day, start: formatLocalTime(w.start), finish: formatLocalTime(w.end) })))], transaction },
        );
        await sequelize.query('UPDATE resources SET rules_version = rules_version + 1 WHERE id = $1', { bind: [resource.id], transaction });
        const after = await weeklyRules((await findResource(sequelize, resource.id, transaction)) as ResourceRow, transaction);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'schedule.rules_replaced',
          entityType: 'schedule',
          entityIds: [resource.id],
          before,
          after,
        });
        return { rules: after };
      });
    },

    async listOverrides(request: schedulingV1.ListOverridesRequest, context: CallContext): Promise<schedulingV1.ListOverridesResponse> {
      requirePermission(context, 'scheduling:browse');
      const checks = new FieldChecks();
      if (request.fromDate) timeChecks.localDate(checks, request.fromDate, 'fromDate');
      if (request.toDate) timeChecks.localDate(checks, request.toDate, 'toDate');
      checks.throwIfAny();
      const resource = await schedule(request.scheduleId);
      return { overrides: await overridesOf(resource.id, request.fromDate, request.toDate) };
    },

    async putOverride(request: schedulingV1.PutOverrideRequest, context: CallContext): Promise<schedulingV1.PutOverrideResponse> {
      const actor = requirePermission(context, 'scheduling:configure');
      const dateChecks = new FieldChecks();
      dateChecks.parse(schedulingFields.localDate, request.localDate, 'localDate');
      parseInput(schedulingApi.dateOverride, { closed: request.closed, windows: request.windows }, dateChecks);
      const checks = new FieldChecks();
      const windows = checkWindows(checks, request.windows, 'windows', () => 0);
      checks.throwIfAny();
      const stored = windows.map((w) => ({ start: formatLocalTime(w.start), end: formatLocalTime(w.end) }));
      return writeTransaction(deps, undefined, async (transaction) => {
        const resource = await schedule(request.scheduleId, transaction, true);
        const [before] = await overridesOf(resource.id, request.localDate, request.localDate, transaction);
        if (before) checkVersion('override', before.version, request.expectedVersion);
        await sequelize.query(
          `INSERT INTO date_overrides (resource_id, local_date, closed, windows) VALUES ($1, $2, $3, $4::jsonb)
           ON CONFLICT (resource_id, local_date) DO UPDATE SET closed = $3, windows = $4::jsonb, version = date_overrides.version + 1`,
          { bind: [resource.id, request.localDate, request.closed, JSON.stringify(stored)], transaction },
        );
        const [after] = await overridesOf(resource.id, request.localDate, request.localDate, transaction);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'schedule.override_set',
          entityType: 'schedule',
          entityIds: [resource.id],
          before: before ?? null,
          after,
        });
        return { override: after, created: !before };
      });
    },

    async deleteOverride(request: schedulingV1.DeleteOverrideRequest, context: CallContext): Promise<schedulingV1.DeleteOverrideResponse> {
      const actor = requirePermission(context, 'scheduling:configure');
      const checks = new FieldChecks();
      timeChecks.localDate(checks, request.localDate, 'localDate');
      checks.throwIfAny();
      return writeTransaction(deps, undefined, async (transaction) => {
        const resource = await schedule(request.scheduleId, transaction, true);
        const [before] = await overridesOf(resource.id, request.localDate, request.localDate, transaction);
        if (!before) throw notFound('override', 'date');
        checkVersion('override', before.version, request.expectedVersion);
        await sequelize.query('DELETE FROM date_overrides WHERE resource_id = $1 AND local_date = $2', { bind: [resource.id, request.localDate], transaction });
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'schedule.override_deleted',
          entityType: 'schedule',
          entityIds: [resource.id],
          before,
          after: null,
        });
        return { scheduleId: resource.id, localDate: request.localDate };
      });
    },
  };
}
