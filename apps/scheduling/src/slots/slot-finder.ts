import type { Sequelize, Transaction } from 'sequelize';
import type { schedulingV1 } from '@libs/contracts';
import type { CursorCodec } from '@libs/cursor';
import type { ResourceRow } from '../resources/resource-store';
import { loadRules } from '../schedules/rule-store';
import { buffersOf, gridOf, type ServiceRow } from '../services/service-store';
import { formatInstant, MS_PER_MINUTE } from '../time/zoned-time';
import { bookingWindow, resourceAvailability, type Unavailable } from './availability';
import { loadOccupations } from './occupations';
import { encodeSlotToken } from './slot-token';

export interface FoundSlot {
  resourceId: string;
  locationId: string;
  zone: string;
  start: number;
  end: number;
}

export type FoundUnavailable = Unavailable & { resourceId: string; zone: string };

/** The free slots (and, explaining, why the rest is not free) of some resources for a service, starting in [fromMs, toMs). */
export async function findSlots(
  sequelize: Sequelize,
  query: { service: ServiceRow; resources: readonly ResourceRow[]; fromMs: number; toMs: number; nowMs: number; explain: boolean },
  transaction?: Transaction,
): Promise<{ free: FoundSlot[]; unavailable: FoundUnavailable[] }> {
  const { service, resources } = query;
  const grid = gridOf(service);
  const buffers = buffersOf(service);
  const reach = (grid.durationMinutes + buffers.beforeMinutes + buffers.afterMinutes) * MS_PER_MINUTE;
  const rules = await loadRules(sequelize, resources, transaction);
  const occupations = await loadOccupations(sequelize, resources.map((r) => r.id), query.fromMs - reach, query.toMs + reach, transaction);
  const free: FoundSlot[] = [];
  const unavailable: FoundUnavailable[] = [];
  for (const resource of resources) {
    const zone = resource.time_zone;
    const found = resourceAvailability({
      rules: rules.get(resource.id) as NonNullable<ReturnType<typeof rules.get>>,
      grid,
      buffers,
      occupations: occupations.get(resource.id) ?? [],
      window: bookingWindow(query.nowMs, zone, service.policy),
      fromMs: query.fromMs,
      toMs: query.toMs,
      explain: query.explain,
    });
    // Plain loops and literals of one shape: spreads of thousands of slots were a fifth of a long search's CPU.
    for (const slot of found.free) free.push({ start: slot.start, end: slot.end, resourceId: resource.id, locationId: resource.location_id, zone });
    for (const gap of found.unavailable) unavailable.push({ ...gap, resourceId: resource.id, zone });
  }
  const order = (a: { start: number; resourceId: string }, b: { start: number; resourceId: string }) =>
    a.start - b.start || (a.resourceId < b.resourceId ? -1 : a.resourceId > b.resourceId ? 1 : 0);
  return { free: free.sort(order), unavailable: unavailable.sort(order) };
}

/** A free slot as callers see it, with its token; `viewerZone` adds its times on the viewer's clock. */
export function toSlot(cursors: CursorCodec, serviceId: string, slot: FoundSlot, viewerZone?: string): schedulingV1.Slot {
  return {
    slotToken: encodeSlotToken(cursors, { serviceId, resourceId: slot.resourceId, start: slot.start }),
    start: formatInstant(slot.start, slot.zone),
    end: formatInstant(slot.end, slot.zone),
    timeZone: slot.zone,
    resourceId: slot.resourceId,
    locationId: slot.locationId,
    serviceId,
    viewerStart: viewerZone ? formatInstant(slot.start, viewerZone) : '',
    viewerEnd: viewerZone ? formatInstant(slot.end, viewerZone) : '',
  };
}

const ALTERNATIVES = 3;
/**
 * How far either side of the refused start to look, widening until three are found: a refusal under contention
 * must stay cheap (one search of a day is a fraction of a week's), and three found within d of the start are the
 * nearest three, since any slot outside is further than d.
 */
const ALTERNATIVES_REACH_MS = [3_600_000, 86_400_000, 7 * 86_400_000];

/** The free slots nearest to `start` (at most three; the same resource first on a tie), for a 409. */
export async function nearestAlternatives(
  sequelize: Sequelize,
  cursors: CursorCodec,
  query: { service: ServiceRow; resources: readonly ResourceRow[]; start: number; resourceId: string; nowMs: number },
): Promise<schedulingV1.Slot[]> {
  const distance = (slot: FoundSlot) => Math.abs(slot.start - query.start) * 2 + (slot.resourceId === query.resourceId ? 0 : 1);
  let nearest: FoundSlot[] = [];
  for (const reach of ALTERNATIVES_REACH_MS) {
    const { free } = await findSlots(sequelize, {
      service: query.service,
      resources: query.resources,
      fromMs: Math.max(query.nowMs, query.start - reach),
      toMs: query.start + reach,
      nowMs: query.nowMs,
      explain: false,
    });
    nearest = free
      .filter((slot) => !(slot.start === query.start && slot.resourceId === query.resourceId))
      .sort((a, b) => distance(a) - distance(b))
      .slice(0, ALTERNATIVES);
    if (nearest.length === ALTERNATIVES) break;
  }
  return nearest.map((slot) => toSlot(cursors, query.service.id, slot));
}
