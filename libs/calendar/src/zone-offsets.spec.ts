import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { localTimeOf, localTimeThroughTemporal } from './vtimezone';

/**
 * The fast wall clock (offset spans) against Temporal itself, on zones with every kind of change: a summer hour
 * (New York, London), a negative "summer" offset (Dublin), half an hour (Lord Howe), a 45-minute zone (Chatham),
 * Ramadan's removals (Casablanca), none at all (Kolkata), and historical local mean times.
 */
const ZONES = ['America/New_York', 'Europe/London', 'Europe/Dublin', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Africa/Casablanca', 'Asia/Kolkata', 'America/Sao_Paulo'];

/** Every transition of the zone in 2026–2028, each with the instants an hour and a half around it, minute by minute. */
function aroundTransitions(zone: string): string[] {
  const instants: string[] = [];
  const end = Temporal.Instant.from('2029-01-01T00:00:00Z');
  for (let t = Temporal.Instant.from('2026-01-01T00:00:00Z').toZonedDateTimeISO(zone).getTimeZoneTransition('next'); t && Temporal.Instant.compare(t.toInstant(), end) < 0; t = t.getTimeZoneTransition('next')) {
    for (let minute = -90; minute <= 90; minute += 1) instants.push(t.toInstant().add({ minutes: minute }).toString());
  }
  return instants;
}

describe('localTimeOf', () => {
  // Kolkata and São Paulo made no change in these years: the random instants below cover them.
  it.each(ZONES.filter((zone) => !['Asia/Kolkata', 'America/Sao_Paulo'].includes(zone)))('agrees with Temporal around every 2026–2028 transition of %s, repeated hours included', (zone) => {
    const instants = aroundTransitions(zone);
    expect(instants.length).toBeGreaterThan(0);
    // Forwards, then backwards: the kept span is met from both sides.
    for (const instant of [...instants, ...[...instants].reverse()]) expect([instant, localTimeOf(instant, zone)]).toEqual([instant, localTimeThroughTemporal(instant, zone)]);
  });

  it('agrees with Temporal on instants from 1850 to 2150 in any order', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1850, 0, 1) / 1000, max: Date.UTC(2150, 0, 1) / 1000 }), (zone, seconds) => {
        const instant = new Date(seconds * 1000).toISOString();
        expect(localTimeOf(instant, zone)).toBe(localTimeThroughTemporal(instant, zone));
      }),
      { numRuns: 5_000 },
    );
  });

  it('gives no local time for the second pass of a fall-back hour, and the time for the first', () => {
    // New York fell back at 2026-11-01T06:00Z: 01:30 local is 05:30Z (EDT) and again 06:30Z (EST).
    expect(localTimeOf('2026-11-01T05:30:00Z', 'America/New_York')).toBe('20261101T013000');
    expect(localTimeOf('2026-11-01T06:30:00Z', 'America/New_York')).toBeUndefined();
    expect(localTimeOf('2026-11-01T07:00:00Z', 'America/New_York')).toBe('20261101T020000');
  });
});
