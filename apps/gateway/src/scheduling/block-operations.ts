import { z } from 'zod';
import { financeApi, SCHEDULING_LIMITS, schedulingApi, schedulingFields } from '@libs/contracts';
import { idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { cursor, queryOf } from '../platform/routing/query-fields';
import { etagHeader, json, page, problem, problemSchema } from '../platform/routing/responses';
import { browse, limit, needsOneOf, tag } from './scheduling-operation-parts';
import { byId } from '../platform/routing/path-ids';
import { block } from './schemas';

/** Time off and closures of one resource, for `scheduling:block`: scheduling's reach says on which resources. */

const access = { key: 'scheduling:block' } as const;
const notStaffed = { '403': problem('Your role may not block time, or you do not staff this resource.') };

const overlappingProblem = problemSchema
  .extend({
    appointments: z
      .array(z.object({ id: z.uuid(), status: z.string(), start: schedulingFields.instant, end: schedulingFields.instant }))
      .optional()
      .meta({ description: `The appointments in the way (at most ${SCHEDULING_LIMITS.blockOverlapsListed}; overlapping_appointments).` }),
    more: z.int().optional().meta({ description: 'How many more are in the way.' }),
  })
  .meta({ id: 'OverlappingProblem' });

export const listBlocks = operation({
  method: 'get',
  path: '/api/v1/scheduling/blocks',
  operationId: 'listBlocks',
  summary: 'Blocks of a resource or a location, by start',
  tag,
  access: browse,
  request: {
    query: needsOneOf(
      z.object({
        resource: queryOf(financeApi.uuid).optional().meta({ description: 'Only this resource.' }),
        location: queryOf(schedulingApi.premiseId).optional().meta({ description: 'Only the resources of this location.' }),
        from: queryOf(schedulingFields.instant).optional().meta({ description: 'Blocks ending after this instant (with an offset).' }),
        to: queryOf(schedulingFields.instant).optional().meta({ description: 'Blocks starting before this instant (with an offset).' }),
        limit,
        cursor,
      }),
      'resource',
      'location',
    ),
  },
  responses: { '200': json('A page of blocks.', page('blocks', block)) },
});

export const createBlock = operation({
  method: 'post',
  path: '/api/v1/scheduling/blocks',
  operationId: 'createBlock',
  summary: 'Block time of a resource',
  description:
    'Over appointments it fails (409 `overlapping_appointments`, naming them) unless `cancelOverlapping` is true: then they are cancelled (reason `prov`) in the same transaction. Writes one audit event per change.',
  tag,
  access,
  request: { headers: idempotentWrite, body: schedulingApi.newBlock },
  responses: {
    '201': json(
      'Created. A block has no address of its own: list the resource’s blocks to read it again.',
      block.extend({ cancelledAppointmentIds: z.array(z.uuid()).meta({ description: 'The appointments it cancelled.' }) }).meta({ id: 'CreatedBlock' }),
      etagHeader,
    ),
    ...notStaffed,
    '404': problem('No such resource.'),
    '409': {
      description: 'Appointments or another block are in the way (`overlapping_appointments`, `overlapping_block`), or the Idempotency-Key was used with another request.',
      content: { 'application/problem+json': overlappingProblem },
    },
  },
});

export const deleteBlock = operation({
  method: 'delete',
  path: '/api/v1/scheduling/blocks/{id}',
  operationId: 'deleteBlock',
  summary: 'Remove a block: its time is free again',
  tag,
  access,
  request: { path: byId('Block') },
  ifMatch: true,
  responses: { '200': json('The removed id.', z.object({ id: z.uuid() })), ...notStaffed, '404': problem('No such block.') },
});
