import { toBlockJson, type schedulingV1 } from '@libs/contracts';
import type { Caller } from '../platform/routing/access';
import { etagOf } from '../platform/http/if-match';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './block-operations';
import { nextCursorOf, returned } from './scheduling-response';
import { seesStaff } from './staff-view';

/**
 * Who created a block is a staff user id, and why is often personal (leave, illness): both null for callers who
 * are not staff, who need only know the time is taken (docs/decisions/0018-what-each-role-sees-of-scheduling.md).
 */
function blockJsonFor(caller: Caller) {
  const staff = seesStaff(caller);
  return (block: schedulingV1.Block) => {
    const json = toBlockJson(block);
    return staff ? json : { ...json, createdBy: null, reason: null };
  };
}

/** /api/v1/scheduling/blocks. */
export function blockRoutes(upstreams: Upstreams): Route[] {
  const scheduling = upstreams.scheduling;
  return [
    route(op.listBlocks, async ({ query }, { res, caller, upstream }) => {
      const request = {
        resourceId: query.resource ?? '',
        locationId: query.location ?? '',
        from: query.from ?? '',
        to: query.to ?? '',
        limit: query.limit,
        cursor: query.cursor ?? '',
      };
      const page = await scheduling.call((c) => c.listBlocks, request, upstream);
      res.json({ blocks: page.blocks.map(blockJsonFor(caller)), ...nextCursorOf(page.nextCursor) });
    }),

    route(op.createBlock, async ({ headers, body }, { res, upstream }) => {
      const request = {
        resourceId: body.resourceId,
        start: body.start,
        end: body.end,
        reason: body.reason ?? '',
        cancelOverlapping: body.cancelOverlapping ?? false,
        idempotencyKey: headers['Idempotency-Key'] ?? '',
      };
      const created = await scheduling.call((c) => c.createBlock, request, upstream);
      const block = returned(created.block);
      res.status(201).setHeader('ETag', etagOf(block.version));
      res.json({ ...toBlockJson(block), cancelledAppointmentIds: created.cancelledAppointmentIds });
    }),

    route(op.deleteBlock, async ({ path, expectedVersion }, { res, upstream }) => {
      const { id } = await scheduling.call((c) => c.deleteBlock, { id: path.id, expectedVersion }, upstream);
      res.json({ id });
    }),
  ];
}
