import type { ScheduleRules } from '../schedules/schedule-rules';
import { localDateOf, localToInstant, MINUTES_PER_DAY } from '../time/zoned-time';
import { resourceAvailability, type BookingWindow, type Buffers, type Occupation, type Unavailable } from './availability';
import type { Grid } from './slot-grid';

export interface FoundSlot {
  resourceId: string;
  locationId: string;
  zone: string;
  start: number;
  end: number;
}

type FoundUnavailable = Unavailable & { resourceId: string; zone: string };

/** What a search answers: a free slot, or (explain) an interval that is not free and why. */
export type FoundItem = { slot: FoundSlot } | { gap: FoundUnavailable };

/** An item's place in a search's order, which its cursors carry: [start, resourceId, 0 for a slot or 1 for a gap, end]. */
export type Position = [number, string, number, number];

export const positionOf = (item: FoundItem): Position =>
  'slot' in item ? [item.slot.start, item.slot.resourceId, 0, item.slot.end] : [item.gap.start, item.gap.resourceId, 1, item.gap.end];

export function comparePositions(a: Position, b: Position): number {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** One resource as a search sees it: its rules, its occupations (sorted by start) and its policy's booking window. */
export interface SearchedResource {
  id: string;
  locationId: string;
  rules: ScheduleRules;
  occupations: readonly Occupation[];
  window: BookingWindow;
}

/** Everything a search of [fromMs, toMs) needs, loaded once; its items are made only as they are read. */
export interface SlotSearch {
  resources: readonly SearchedResource[];
  grid: Grid;
  buffers: Buffers;
  fromMs: number;
  toMs: number;
}

interface Placed {
  item: FoundItem;
  position: Position;
}

/**
 * One resource's items after `after`, in order, made one local day at a time. A day runs from a local midnight
 * to the next, where `closedTime` cuts its gaps too, and a slot belongs to the day it starts in; so the days'
 * items together are exactly the range's, whatever the daylight-saving changes, and each day's follow the last's.
 */
function* resourceItems(search: SlotSearch, resource: SearchedResource, options: { explain: boolean; after?: Position }): Generator<Placed> {
  const { rules } = resource;
  const { zone } = rules;
  const { after } = options;
  // With a cursor, the days before the one it points into hold nothing after it.
  let from = after ? Math.max(search.fromMs, localToInstant(localDateOf(after[0], zone), 0, zone)) : search.fromMs;
  while (from < search.toMs) {
    const until = Math.min(search.toMs, localToInstant(localDateOf(from, zone), MINUTES_PER_DAY, zone));
    const day = resourceAvailability({
      rules,
      grid: search.grid,
      buffers: search.buffers,
      occupations: resource.occupations,
      window: resource.window,
      fromMs: from,
      toMs: until,
      explain: options.explain,
    });
    const placed: Placed[] = [];
    const add = (item: FoundItem) => {
      const position = positionOf(item);
      if (!after || comparePositions(after, position) < 0) placed.push({ item, position });
    };
    for (const slot of day.free) add({ slot: { start: slot.start, end: slot.end, resourceId: resource.id, locationId: resource.locationId, zone } });
    for (const gap of day.unavailable) add({ gap: { ...gap, resourceId: resource.id, zone } });
    yield* placed.sort((a, b) => comparePositions(a.position, b.position));
    from = until;
  }
}

/**
 * The items of a search after `after` (from the start without), in order: each resource's in order, merged by
 * taking the least next item of all of them. Reading n items makes each resource's days up to its next item: a
 * page costs its own days where the resources have slots or gaps to show, but a resource with no free slot left
 * in the range (fully booked, or closed) is read to the range's end on every page when explain is off.
 */
function* searchItems(search: SlotSearch, options: { explain: boolean; after?: Position }): Generator<FoundItem> {
  const heads = search.resources.map((resource) => ({ items: resourceItems(search, resource, options), next: undefined as Placed | undefined }));
  const advance = (head: (typeof heads)[number]) => {
    const next = head.items.next();
    head.next = next.done ? undefined : next.value;
  };
  heads.forEach(advance);
  for (;;) {
    let least: (typeof heads)[number] | undefined;
    for (const head of heads) {
      if (head.next && (!least?.next || comparePositions(head.next.position, least.next.position) < 0)) least = head;
    }
    if (!least?.next) return;
    yield least.next.item;
    advance(least);
  }
}

/** The free slots of a search, in order. */
export function* freeSlots(search: SlotSearch): Generator<FoundSlot> {
  for (const item of searchItems(search, { explain: false })) if ('slot' in item) yield item.slot;
}

/** `limit` items after `after`, and where the next page starts when more follow (read one item further to know). */
export function searchPage(search: SlotSearch, options: { explain: boolean; after?: Position; limit: number }): { items: FoundItem[]; next?: Position } {
  const items: FoundItem[] = [];
  for (const item of searchItems(search, options)) {
    if (items.length === options.limit) return { items, next: positionOf(items[items.length - 1]) };
    items.push(item);
  }
  return { items };
}
