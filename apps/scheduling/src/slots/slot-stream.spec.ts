import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { DayOverride, ScheduleRules, Window } from '../schedules/schedule-rules';
import { addDays, localToInstant, type LocalDate } from '../time/zoned-time';
import { bookingWindow, resourceAvailability, type Occupation } from './availability';
import { candidateSlots, type Grid } from './slot-grid';
import { comparePositions, positionOf, searchPage, type FoundItem, type Position, type SearchedResource, type SlotSearch } from './slot-stream';

const h = (hours: number) => hours * 60;
const KINDS: Occupation['kind'][] = ['booked', 'held', 'blocked'];

/** A schedule's overrides that note every date a search asks about: the dates it expanded. */
class AskedDates extends Map<LocalDate, DayOverride> {
  readonly asked = new Set<LocalDate>();

  override get(date: LocalDate): DayOverride | undefined {
    this.asked.add(date);
    return super.get(date);
  }
}

/**
 * A resource open in `windows` every day (and as `overrides` say), with every `takenEvery`-th slot of the range
 * taken (booked, held or blocked in turn, with the service's buffers).
 */
function resource(
  search: { grid: Grid; fromMs: number; toMs: number; nowMs: number; policy: { minNoticeMinutes: number; horizonDays: number } },
  id: string,
  zone: string,
  windows: Window[],
  options: { overrides?: [LocalDate, DayOverride][]; takenEvery?: number; afterMinutes?: number } = {},
): SearchedResource {
  const weekly = [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => windows.map((window) => ({ weekday, ...window })));
  const overrides = new AskedDates(options.overrides);
  const rules: ScheduleRules = { zone, weekly, overrides };
  const after = (options.afterMinutes ?? 0) * 60_000;
  const occupations = candidateSlots(rules, search.grid, search.fromMs, search.toMs)
    .filter((_, i) => options.takenEvery !== undefined && i % options.takenEvery === 0)
    .map((slot, i): Occupation => ({ span: slot, occupied: { start: slot.start, end: slot.end + after }, kind: KINDS[i % KINDS.length] }));
  overrides.asked.clear();
  return { id, locationId: 'P1', rules, occupations, window: bookingWindow(search.nowMs, zone, search.policy) };
}

/** The pages as the search made them before it went day by day: every item of the range, sorted, then filtered and cut. */
function referencePages(search: SlotSearch, explain: boolean, limit: number): { items: FoundItem[]; next?: Position }[] {
  const all = search.resources
    .flatMap((r) => {
      const found = resourceAvailability({ ...search, rules: r.rules, occupations: r.occupations, window: r.window, explain });
      const zone = r.rules.zone;
      return [
        ...found.free.map((slot): FoundItem => ({ slot: { ...slot, resourceId: r.id, locationId: r.locationId, zone } })),
        ...found.unavailable.map((gap): FoundItem => ({ gap: { ...gap, resourceId: r.id, zone } })),
      ];
    })
    .sort((a, b) => comparePositions(positionOf(a), positionOf(b)));
  const pages: { items: FoundItem[]; next?: Position }[] = [];
  let after: Position | undefined;
  do {
    const placed = all.filter((item) => !after || comparePositions(after, positionOf(item)) < 0);
    const next = placed.length > limit ? positionOf(placed[limit - 1]) : undefined;
    pages.push({ items: placed.slice(0, limit), ...(next && { next }) });
    after = next;
  } while (after);
  return pages;
}

/** Every page, each asked with the position the one before gave (what a cursor carries). */
function walk(search: SlotSearch, explain: boolean, limit: number): { items: FoundItem[]; next?: Position }[] {
  const pages = [searchPage(search, { explain, limit })];
  for (let after = pages[0].next; after; after = pages[pages.length - 1].next) pages.push(searchPage(search, { explain, after, limit }));
  return pages;
}

/** 31 days from `from` of 20 resources of four kinds, 45-minute slots every 30 minutes, 10 minutes after each. */
function clinic(zone: string, from: LocalDate) {
  const fromMs = localToInstant(from, 0, zone);
  const toMs = localToInstant(addDays(from, 31), 0, zone);
  const base = { grid: { durationMinutes: 45, stepMinutes: 30 }, fromMs, toMs, nowMs: fromMs + 2.5 * 86_400_000, policy: { minNoticeMinutes: 90, horizonDays: 24 } };
  const kinds: [Window[], Parameters<typeof resource>[4]][] = [
    [[{ start: h(8), end: h(18) }], { takenEvery: 5, afterMinutes: 10 }],
    // Around midnight and across the night's daylight-saving changes.
    [[{ start: 0, end: h(3) }, { start: h(22), end: h(24) }], { takenEvery: 4, afterMinutes: 10 }],
    [[{ start: h(9), end: h(12.5) }, { start: h(13.5), end: h(17) }], {}],
    [
      [{ start: h(1), end: h(4) }],
      {
        overrides: [
          [addDays(from, 3), { closed: true, windows: [] }],
          [addDays(from, 9), { closed: false, windows: [{ start: h(14), end: h(15) }] }],
        ],
        takenEvery: 3,
      },
    ],
  ];
  // Listed against their ids' order: the order of a page is the ids', not the list's.
  const resources = Array.from({ length: 20 }, (_, i) => resource(base, `r${String(19 - i).padStart(2, '0')}`, zone, ...kinds[i % kinds.length]));
  return { resources, grid: base.grid, buffers: { beforeMinutes: 0, afterMinutes: 10 }, fromMs, toMs };
}

const asked = (search: SlotSearch) => [...new Set(search.resources.flatMap((r) => [...(r.rules.overrides as AskedDates).asked]))].sort();

describe('searchPage', () => {
  describe.each([
    ['America/New_York', '2027-02-25'],
    ['Europe/London', '2027-10-15'],
    ['Australia/Lord_Howe', '2027-03-20'],
  ])('31 days of 20 resources in %s from %s (a daylight-saving change)', (zone, from) => {
    it.each([
      [false, 37],
      [true, 97],
      [true, 500],
    ])('walked page by page (explain %p, pages of %p), gives the pages of the whole range sorted', (explain, limit) => {
      const pages = walk(clinic(zone, from), explain, limit);
      expect(pages).toEqual(referencePages(clinic(zone, from), explain, limit));
      expect(pages.length).toBeGreaterThan(1);
    });
  });

  it("makes only a page's own days: the first page, and one in the middle of the range", () => {
    const first = clinic('America/New_York', '2027-03-01');
    searchPage(first, { explain: true, limit: 100 });
    // The first day, and the second of the resources open 01:00–04:00, whose last item of the first (closed from
    // 04:00) was read; with the dates either side that open hours are looked up with. Not the 31.
    expect(asked(first)).toEqual(['2027-02-28', '2027-03-01', '2027-03-02', '2027-03-03', '2027-03-04']);

    const middle = clinic('America/New_York', '2027-03-01');
    searchPage(middle, { explain: false, after: [Date.parse('2027-03-20T15:00:00Z'), 'r00', 0, 0], limit: 100 });
    // The cursor's day and the next, which the page runs into, and the one after of the resources open 01:00–04:00,
    // whose last slot of the 21st was read; with the dates either side. None of the 19 days before.
    expect(asked(middle)).toEqual(['2027-03-19', '2027-03-20', '2027-03-21', '2027-03-22', '2027-03-23', '2027-03-24']);
  });
});

describe('searchPage, for any zone, range, hours, policy and page size (property)', () => {
  const zones = Intl.supportedValuesOf('timeZone');
  const windows = fc.constantFrom<Window[]>(
    [{ start: 0, end: h(3) }],
    [{ start: h(1), end: h(4) }],
    [{ start: h(8), end: h(18) }],
    [{ start: 0, end: h(1) }, { start: h(23), end: h(24) }],
    [{ start: h(2), end: h(2.5) }, { start: h(12), end: h(13) }],
  );
  /** The eve of the zone's first offset change (daylight saving, mostly) after the first of a month, if any. */
  const changeEve = (zone: string, year: number, month: number): LocalDate | undefined => {
    const change = Temporal.ZonedDateTime.from({ year, month, day: 1, timeZone: zone }).getTimeZoneTransition('next');
    return change ? addDays(change.toPlainDate().toString(), -1) : undefined;
  };
  /** A zone and a date in 2020–2032, half the time the eve of one of the zone's offset changes. */
  const zoneAndDate = fc.constantFrom(...zones).chain((zone) =>
    fc.tuple(
      fc.constant(zone),
      fc.oneof(
        fc.integer({ min: 0, max: 365 * 12 }).map((n) => addDays('2020-01-01', n)),
        fc.record({ year: fc.integer({ min: 2020, max: 2032 }), month: fc.integer({ min: 1, max: 12 }) }).map(({ year, month }) => changeEve(zone, year, month) ?? `${year}-01-01`),
      ),
    ),
  );
  const grid = fc.constantFrom({ durationMinutes: 30, stepMinutes: 30 }, { durationMinutes: 45, stepMinutes: 15 }, { durationMinutes: 20, stepMinutes: 25 });

  it('walks to the same pages as the whole range sorted', () => {
    fc.assert(
      fc.property(
        zoneAndDate,
        fc.integer({ min: 1, max: 6 }),
        fc.array(windows, { minLength: 1, maxLength: 4 }),
        grid,
        fc.record({ nowMinutes: fc.integer({ min: -1440, max: 7 * 1440 }), minNoticeMinutes: fc.integer({ min: 0, max: 600 }), horizonDays: fc.integer({ min: 0, max: 6 }) }),
        fc.boolean(),
        fc.integer({ min: 1, max: 15 }),
        ([zone, from], days, hours, slotGrid, policy, explain, limit) => {
          const make = (): SlotSearch => {
            const fromMs = localToInstant(from, h(7), zone);
            const toMs = fromMs + days * 86_400_000;
            const base = { grid: slotGrid, fromMs, toMs, nowMs: fromMs + policy.nowMinutes * 60_000, policy };
            const resources = hours.map((open, i) => resource(base, `r${i}`, zone, open, { takenEvery: 4 * (i + 1), afterMinutes: 5 * i }));
            return { resources, grid: slotGrid, buffers: { beforeMinutes: 0, afterMinutes: 0 }, fromMs, toMs };
          };
          expect(walk(make(), explain, limit)).toEqual(referencePages(make(), explain, limit));
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 100) },
    );
  });
});
