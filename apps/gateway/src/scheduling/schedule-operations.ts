import { z } from 'zod';
import { financeApi, schedulingApi, schedulingFields } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { queryOf } from '../platform/routing/query-fields';
import { etagHeader, json, locationHeader, problem } from '../platform/routing/responses';
import { browse, configure, forbidden, tag } from './scheduling-operation-parts';
import { schedule } from './schemas';

/** A resource's schedule (same id): weekly rules and date overrides, local wall-clock times of the location. */

const base = '/api/v1/scheduling/schedules/{id}';
const scheduleId = z.object({ id: financeApi.uuid.meta({ description: "Schedule id: its resource's id." }) });
const onDate = scheduleId.extend({ localDate: schedulingFields.localDate.meta({ description: 'A local date of the location, YYYY-MM-DD.' }) });
const noSchedule = { '404': problem('No such schedule.') };

export const getWeeklyRules = operation({
  method: 'get',
  path: `${base}/rules`,
  operationId: 'getWeeklyRules',
  summary: "A schedule's weekly hours",
  tag,
  access: browse,
  request: { path: scheduleId },
  responses: { '200': json('The weekly rules.', schedule, etagHeader), ...noSchedule },
});

export const putWeeklyRules = operation({
  method: 'put',
  path: `${base}/rules`,
  operationId: 'putWeeklyRules',
  summary: "Replace a schedule's weekly hours",
  description: 'Windows of a weekday must not overlap (else 400 naming the window). Writes one audit event.',
  tag,
  access: configure,
  request: { path: scheduleId, body: schedulingApi.weeklyRules },
  ifMatch: true,
  responses: { '200': json('The new weekly rules, with their new ETag.', schedule, etagHeader), ...forbidden, ...noSchedule },
});

export const listOverrides = operation({
  method: 'get',
  path: `${base}/overrides`,
  operationId: 'listDateOverrides',
  summary: "A schedule's date overrides, by date",
  tag,
  access: browse,
  request: {
    path: scheduleId,
    query: z.object({
      from: queryOf(schedulingFields.localDate).optional().meta({ description: 'First local date, included.' }),
      to: queryOf(schedulingFields.localDate).optional().meta({ description: 'Last local date, included.' }),
    }),
  },
  responses: { '200': json('The overrides.', z.object({ overrides: z.array(schedule) })), ...noSchedule },
});

export const putOverride = operation({
  method: 'put',
  path: `${base}/overrides/{localDate}`,
  operationId: 'putDateOverride',
  summary: 'Other hours on one date, or closed that day',
  description: 'Writes one audit event.',
  tag,
  access: configure,
  request: { path: onDate, body: schedulingApi.dateOverride },
  ifMatch: true,
  responses: {
    '201': json('Set; `Location` names it.', schedule, { ...etagHeader, ...locationHeader }),
    '200': json('Changed.', schedule, etagHeader),
    ...forbidden,
    ...noSchedule,
  },
});

export const deleteOverride = operation({
  method: 'delete',
  path: `${base}/overrides/{localDate}`,
  operationId: 'deleteDateOverride',
  summary: 'Remove a date override: the weekly hours apply again that day',
  tag,
  access: configure,
  request: { path: onDate },
  ifMatch: true,
  responses: {
    '200': json('Removed.', z.object({ scheduleId: z.uuid(), localDate: z.iso.date() })),
    ...forbidden,
    '404': problem('No such schedule, or no override on that date.'),
  },
});
