import { toScheduleJson } from '@libs/contracts';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './schedule-operations';
import { sendRecord } from './scheduling-response';

/** /api/v1/scheduling/schedules/{id}: weekly rules and date overrides. */
export function scheduleRoutes(upstreams: Upstreams): Route[] {
  const scheduling = upstreams.scheduling;
  return [
    route(op.getWeeklyRules, async ({ path }, { res, upstream }) => {
      const { rules } = await scheduling.call((c) => c.getWeeklyRules, { scheduleId: path.id }, upstream);
      sendRecord(res, rules, toScheduleJson);
    }),

    route(op.putWeeklyRules, async ({ path, body, expectedVersion }, { res, upstream }) => {
      const request = { scheduleId: path.id, windows: body.windows, expectedVersion };
      const { rules } = await scheduling.call((c) => c.putWeeklyRules, request, upstream);
      sendRecord(res, rules, toScheduleJson);
    }),

    route(op.listOverrides, async ({ path, query }, { res, upstream }) => {
      const request = { scheduleId: path.id, fromDate: query.from ?? '', toDate: query.to ?? '' };
      const { overrides } = await scheduling.call((c) => c.listOverrides, request, upstream);
      res.json({ overrides: overrides.map(toScheduleJson) });
    }),

    route(op.putOverride, async ({ path, body, expectedVersion }, { res, upstream }) => {
      const request = { scheduleId: path.id, localDate: path.localDate, closed: body.closed, windows: body.windows, expectedVersion };
      const { override, created } = await scheduling.call((c) => c.putOverride, request, upstream);
      if (created) res.location(`/api/v1/scheduling/schedules/${path.id}/overrides/${path.localDate}`);
      sendRecord(res, override, toScheduleJson, created ? 201 : 200);
    }),

    route(op.deleteOverride, async ({ path, expectedVersion }, { res, upstream }) => {
      const request = { scheduleId: path.id, localDate: path.localDate, expectedVersion };
      const deleted = await scheduling.call((c) => c.deleteOverride, request, upstream);
      res.json({ scheduleId: deleted.scheduleId, localDate: deleted.localDate });
    }),
  ];
}
