import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { canonicalZone, formatInstant, localDateOf, localTimeOf, localToInstant } from './zoned-time';
import { parseInstant, parseLocalTime } from './time-input';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000', '');

describe('localToInstant', () => {
  it('a local time that exists once is that instant', () => {
    expect(iso(localToInstant('2026-03-08', 9 * 60, 'America/New_York'))).toBe('2026-03-08T13:00:00Z');
    expect(iso(localToInstant('2026-06-15', 9 * 60, 'Asia/Kolkata'))).toBe('2026-06-15T03:30:00Z');
  });

  it.each([
    ['America/New_York', '2026-03-08', 2 * 60, '2026-03-08T07:00:00Z'],
    ['America/New_York', '2026-03-08', 2 * 60 + 30, '2026-03-08T07:00:00Z'],
    ['America/New_York', '2027-03-14', 2 * 60 + 59, '2027-03-14T07:00:00Z'],
    // Lord Howe springs forward by 30 minutes, 02:00 → 02:30 (+10:30 → +11:00).
    ['Australia/Lord_Howe', '2027-10-03', 2 * 60 + 15, '2027-10-02T15:30:00Z'],
  ])('a time inside the spring-forward gap (%s %s, minute %i) is the transition instant', (zone, date, minute, expected) => {
    expect(iso(localToInstant(date, minute, zone))).toBe(expected);
  });

  it.each([
    // RFC 5545 §3.3.5: 01:30 on 2026-11-01 in New York is 05:30Z, where PostgreSQL's AT TIME ZONE and Luxon say 06:30Z.
    ['America/New_York', '2026-11-01', 90, '2026-11-01T05:30:00Z'],
    ['America/New_York', '2027-11-07', 60, '2027-11-07T05:00:00Z'],
    // Lord Howe falls back 02:00 → 01:30 (+11:00 → +10:30): 01:45 happens twice.
    ['Australia/Lord_Howe', '2027-04-04', 105, '2027-04-03T14:45:00Z'],
  ])('a repeated fall-back time (%s %s, minute %i) is its first occurrence', (zone, date, minute, expected) => {
    expect(iso(localToInstant(date, minute, zone))).toBe(expected);
  });

  it('minute 1440 is the next midnight', () => {
    expect(iso(localToInstant('2026-12-31', 1440, 'Europe/London'))).toBe('2027-01-01T00:00:00Z');
  });
});

describe('formatInstant and localTimeOf', () => {
  it('write the offset in force at the instant', () => {
    expect(formatInstant(Date.parse('2026-11-01T05:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
    expect(formatInstant(Date.parse('2026-11-01T06:30:00Z'), 'America/New_York')).toBe('2026-11-01T01:30:00-05:00');
    expect(formatInstant(Date.parse('2027-04-03T15:15:00Z'), 'Australia/Lord_Howe')).toBe('2027-04-04T01:45:00+10:30');
    expect(formatInstant(Date.parse('2026-06-15T03:30:00Z'), 'Asia/Kolkata')).toBe('2026-06-15T09:00:00+05:30');
  });

  it('show a London clinic’s morning to a viewer in Tokyo on the viewer’s clock', () => {
    const opening = localToInstant('2027-07-01', 9 * 60, 'Europe/London');
    expect(formatInstant(opening, 'Europe/London')).toBe('2027-07-01T09:00:00+01:00');
    expect(formatInstant(opening, 'Asia/Tokyo')).toBe('2027-07-01T17:00:00+09:00');
    expect(localTimeOf(opening, 'Asia/Tokyo')).toEqual({ date: '2027-07-01', minute: 17 * 60 });
  });
});

describe('time input', () => {
  it('accepts instants with an offset or Z only', () => {
    expect(parseInstant('2026-03-08T09:00:00-05:00')).toBe(Date.parse('2026-03-08T14:00:00Z'));
    expect(parseInstant('2026-03-08T09:00Z')).toBe(Date.parse('2026-03-08T09:00:00Z'));
    for (const bad of ['2026-03-08T09:00', '2026-03-08', '2026-02-30T09:00Z', '2026-03-08T09:00:00[Europe/London]', '2026-03-08T25:00Z', 'x'.repeat(10_000), '2026-03-08T09:00\u0000Z']) {
      expect(parseInstant(bad)).toBeUndefined();
    }
  });

  it('reads HH:MM, with 24:00 only as an end', () => {
    expect(parseLocalTime('09:30', { endOfDay: false })).toBe(570);
    expect(parseLocalTime('24:00', { endOfDay: true })).toBe(1440);
    for (const bad of ['24:00', '9:30', '09:60', '25:00', '']) expect(parseLocalTime(bad, { endOfDay: false })).toBeUndefined();
  });

  it('knows IANA zones by their canonical names and refuses offsets', () => {
    expect(canonicalZone('europe/london')).toBe('Europe/London');
    expect(canonicalZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    for (const bad of ['+05:00', 'Mars/Olympus', '', 'Europe/London\u0000', 'x'.repeat(500)]) expect(canonicalZone(bad)).toBeUndefined();
  });
});

describe('reading instants on a zone’s clock, against Temporal', () => {
  const zones = Intl.supportedValuesOf('timeZone');
  const temporal = (epochMs: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);
  const expectSameAsTemporal = (epochMs: number, zone: string) => {
    const time = temporal(epochMs, zone);
    expect(formatInstant(epochMs, zone)).toBe(time.toString({ timeZoneName: 'never' }));
    expect(localDateOf(epochMs, zone)).toBe(time.toPlainDate().toString());
    expect(localTimeOf(epochMs, zone)).toEqual({ date: time.toPlainDate().toString(), minute: time.hour * 60 + time.minute });
  };

  it('agrees at every transition of every zone from 2020 to 2030, and a millisecond either side', () => {
    for (const zone of zones) {
      let at: Temporal.ZonedDateTime | null = temporal(Date.parse('2020-01-01T00:00:00Z'), zone);
      while (at && at.epochMilliseconds < Date.parse('2030-01-01T00:00:00Z')) {
        // Ascending, then back: the span each zone keeps is entered from both sides.
        for (const delta of [-60_000, -1, 0, 1, 60_000, -1]) expectSameAsTemporal(at.epochMilliseconds + delta, zone);
        at = at.getTimeZoneTransition('next');
      }
    }
  });

  it('agrees at the first and the last instant a Date can hold, in every zone', () => {
    for (const zone of zones) for (const epochMs of [-8.64e15, 8.64e15, 8.64e15 - 1, -8.64e15 + 1]) expectSameAsTemporal(epochMs, zone);
  });

  it('agrees on any instant, in any order, in any zone (fractions of a second, local mean times, far years)', () => {
    const instant = fc.oneof(
      fc.integer({ min: Date.parse('1800-01-01T00:00:00Z'), max: Date.parse('2100-01-01T00:00:00Z') }),
      fc.integer({ min: Date.parse('2020-01-01T00:00:00Z') / 60_000, max: Date.parse('2035-01-01T00:00:00Z') / 60_000 }).map((minute) => minute * 60_000),
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.array(instant, { minLength: 1, maxLength: 20 }), (zone, instants) => {
        for (const epochMs of instants) expectSameAsTemporal(epochMs, zone);
      }),
      { numRuns: 500 },
    );
  });
});
