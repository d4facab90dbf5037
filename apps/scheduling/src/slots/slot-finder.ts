import type { Sequelize } from 'sequelize';
import type { schedulingV1 } from '@libs/contracts';
import type { CursorCodec } from '@libs/cursor';
import type { ResourceRow } from '../resources/resource-store';
import { loadRules } from '../schedules/rule-store';
import { buffersOf, gridOf, type ServiceRow } from '../services/service-store';
import { formatInstant, MS_PER_MINUTE } from '../time/zoned-time';
import { bookingWindow } from './availability';
import { loadOccupations } from './occupations';
import { freeSlots, type FoundSlot, type SlotSearch } from './slot-stream';
import { encodeSlotToken } from './slot-token';

/** What a search of some resources for a service, for slots starting in [fromMs, toMs), needs from the database. */
export async function loadSlotSearch(
  sequelize: Sequelize,
  query: { service: ServiceRow; resources: readonly ResourceRow[]; fromMs: number; toMs: number; nowMs: number },
): Promise<SlotSearch> {
  const { service, resources, fromMs, toMs } = query;
  const grid = gridOf(service);
  const buffers = buffersOf(service);
  const reach = (grid.durationMinutes + buffers.beforeMinutes + buffers.afterMinutes) * MS_PER_MINUTE;
  const rules = await loadRules(sequelize, resources);
  const occupations = await loadOccupations(sequelize, resources.map((r) => r.id), fromMs - reach, toMs + reach);
  return {
    resources: resources.map((resource) => ({
      id: resource.id,
      locationId: resource.location_id,
      rules: rules.get(resource.id) as NonNullable<ReturnType<typeof rules.get>>,
      occupations: occupations.get(resource.id) ?? [],
      window: bookingWindow(query.nowMs, resource.time_zone, service.policy),
    })),
    grid,
    buffers,
    fromMs,
    toMs,
  };
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
    const search = await loadSlotSearch(sequelize, {
      service: query.service,
      resources: query.resources,
      fromMs: Math.max(query.nowMs, query.start - reach),
      toMs: query.start + reach,
      nowMs: query.nowMs,
    });
    nearest = [...freeSlots(search)]
      .filter((slot) => !(slot.start === query.start && slot.resourceId === query.resourceId))
      .sort((a, b) => distance(a) - distance(b))
      .slice(0, ALTERNATIVES);
    if (nearest.length === ALTERNATIVES) break;
  }
  return nearest.map((slot) => toSlot(cursors, query.service.id, slot));
}
