import type { Sequelize } from 'sequelize';
import { grantedRolesInProse, SCHEDULING_LIMITS, schedulingFields, type schedulingV1 } from '@libs/contracts';
import { GrpcStatus, requirePermission, RpcError, type CallContext } from '@libs/grpc';
import { cursorPosition, pageSize, type PositionCheck } from '@libs/cursor';
import { FieldChecks, notFound } from '@libs/validation';
import { mayExplain } from '../access';
import { PREMISE_ID } from '../locations/location-store';
import type { SchedulingDeps } from '../scheduling-deps';
import { findLocation } from '../locations/location-store';
import { findResource, listResources, type ResourceRow } from '../resources/resource-store';
import { findService, type ServiceRow } from '../services/service-store';
import { timeChecks } from '../time/time-input';
import { addDays, formatInstant, localToInstant } from '../time/zoned-time';
import { bookingWindow } from './availability';
import { loadSlotSearch, toSlot } from './slot-finder';
import { lookAheadResourceDays } from './slot-metrics';
import { freeSlots, searchPage, type FoundSlot, type Position } from './slot-stream';

/** Longest range one search may cover. */
export const MAX_RANGE_DAYS = SCHEDULING_LIMITS.slotRangeDays;
const { rangeDays } = schedulingFields;
const DAY_MS = 86_400_000;

const isPosition: PositionCheck<Position> = (position): position is Position =>
  Array.isArray(position) && position.length === 4 && typeof position[1] === 'string' &&
  [position[0], position[2], position[3]].every(Number.isFinite);

export function slotHandlers(deps: SchedulingDeps) {
  const { sequelize, cursors } = deps;
  return {
    /**
     * Free slots of a service at a location (or one resource), starting in a range of at most 31 days. The range
     * is two instants, or two local dates of the viewer's zone (the location's unless named), both included.
     * Slots and (explain=true, staff) the reasons for the rest page together, by start.
     */
    async searchSlots(request: schedulingV1.SearchSlotsRequest, context: CallContext): Promise<schedulingV1.SearchSlotsResponse> {
      const actor = requirePermission(context, 'scheduling:browse');
      if (request.explain && !mayExplain(actor)) throw new RpcError(GrpcStatus.PERMISSION_DENIED, `explain=true is for ${grantedRolesInProse('scheduling:explain')}`);
      const limit = pageSize(request.limit, SCHEDULING_LIMITS.slotPage);
      const checks = new FieldChecks()
        .uuid(request.serviceId, 'serviceId', { required: true })
        .uuid(request.resourceId, 'resourceId', { required: false })
        .check(request.locationId !== '' || request.resourceId !== '', 'locationId', 'give a locationId or a resourceId')
        .check(request.locationId === '' || PREMISE_ID.test(request.locationId), 'locationId', 'must be a premise id');
      const viewerZone = request.timeZone ? timeChecks.zone(checks, request.timeZone, 'timeZone') : undefined;
      const byDate = schedulingFields.isLocalDate(request.from) && schedulingFields.isLocalDate(request.to);
      const instants = byDate ? undefined : [timeChecks.instant(checks, request.from, 'from'), timeChecks.instant(checks, request.to, 'to')];
      checks.throwIfAny();
      // Local dates count on the calendar (a daylight-saving change does not make 31 days longer), instants in time.
      const span = rangeDays(request.from, request.to) as number;
      new FieldChecks()
        .check(span > 0, 'to', 'must be after from')
        .check(span <= MAX_RANGE_DAYS, 'to', `must be at most ${MAX_RANGE_DAYS} days after from`)
        .throwIfAny();

      const service = await findService(sequelize, request.serviceId);
      if (!service?.active) throw notFound('service');
      const resources = await listResources(sequelize, { locationId: request.locationId, resourceId: request.resourceId, offering: service.id });
      if (resources.length === 0) {
        if (request.resourceId && !(await findResource(sequelize, request.resourceId))) throw notFound('resource');
        if (request.locationId && !(await findLocation(sequelize, request.locationId))) throw notFound('location');
      }
      const zone = viewerZone ?? resources[0]?.time_zone ?? 'UTC';
      const [fromMs, toMs] = byDate
        ? [localToInstant(request.from, 0, zone), localToInstant(addDays(request.to, 1), 0, zone)]
        : (instants as [number, number]);

      const query = { ...request, cursor: undefined, limit: undefined };
      const after = cursorPosition(cursors, request.cursor, query, isPosition);
      const nowMs = Date.now();
      const search = await loadSlotSearch(sequelize, { service, resources, fromMs, toMs, nowMs });
      // The items come in the cursor's order, so nothing is sorted here: each resource's days are made in order, each
      // day sorted, and searchItems merges the resources by taking the least next item (slot-stream.ts).
      const page = searchPage(search, { explain: request.explain, after, limit });
      // nextAvailable answers a range without any free slot, wherever the cursor stands: a page without one looks
      // from the range's start, which stops at the first free slot.
      const noneFree = !page.items.some((item) => 'slot' in item) && freeSlots(search).next().done;
      const nextAvailable = noneFree ? await firstFreeAfter(sequelize, service, resources, toMs, nowMs) : undefined;
      return {
        slots: page.items.flatMap((item) => ('slot' in item ? [toSlot(cursors, service.id, item.slot, viewerZone)] : [])),
        unavailable: page.items.flatMap((item) =>
          'gap' in item
            ? [{ resourceId: item.gap.resourceId, start: formatInstant(item.gap.start, item.gap.zone), end: formatInstant(item.gap.end, item.gap.zone), reasons: item.gap.reasons }]
            : [],
        ),
        nextCursor: page.next ? cursors.encode(query, page.next) : '',
        nextAvailable: nextAvailable && toSlot(cursors, service.id, nextAvailable, viewerZone),
      };
    },
  };
}

/**
 * The first free slot after `start`, looking ahead 31 days at a time up to the end of the policy's horizon, but
 * reading at most SCHEDULING_LIMITS.lookAheadResourceDays resource-days in all: the look-ahead's work is bounded
 * whatever the data (a location of closed or fully booked resources), and a slot further out is not named.
 */
async function firstFreeAfter(
  sequelize: Sequelize,
  service: ServiceRow,
  resources: readonly ResourceRow[],
  start: number,
  nowMs: number,
): Promise<FoundSlot | undefined> {
  if (resources.length === 0) return undefined;
  const horizonEnd = Math.max(...resources.map((r) => bookingWindow(nowMs, r.time_zone, service.policy).horizonEnd));
  const from = Math.max(start, nowMs);
  const end = Math.min(horizonEnd, from + Math.floor(SCHEDULING_LIMITS.lookAheadResourceDays / resources.length) * DAY_MS);
  let read = 0;
  try {
    for (let chunkStart = from; chunkStart < end; chunkStart += MAX_RANGE_DAYS * DAY_MS) {
      const chunkEnd = Math.min(chunkStart + MAX_RANGE_DAYS * DAY_MS, end);
      read += Math.ceil((chunkEnd - chunkStart) / DAY_MS) * resources.length;
      const ahead = await loadSlotSearch(sequelize, { service, resources, fromMs: chunkStart, toMs: chunkEnd, nowMs });
      const first = freeSlots(ahead).next();
      if (!first.done) return first.value;
    }
    return undefined;
  } finally {
    lookAheadResourceDays.observe(read);
  }
}
