import { buildReport } from './timeline';
import type { Sample } from './steady-load';

const sample = (sentMs: number, doneMs: number, status: number, breakerOpen = false): Sample => ({
  kind: 'GET',
  sentMs,
  doneMs,
  status,
  breakerOpen,
});

describe('buildReport', () => {
  // The load began at 1,000,000; the fault from 1,002,000 to 1,006,000: times in the report count from the fault.
  const window = { began: 1_002_000, ended: 1_006_000 };
  const samples = [
    sample(1_000, 1_010, 200),
    sample(2_100, 2_150, 503),
    sample(5_000, 5_010, 503),
    sample(6_500, 6_505, 503, true),
    sample(7_000, 7_020, 504),
    sample(9_000, 9_040, 200),
  ];

  it('says how long clients got failures, and for how long after the fault ended', () => {
    const [get] = buildReport('db', window, 1_000_000, samples, {}).kinds;
    expect(get).toEqual({
      kind: 'GET',
      requests: 6,
      outcomes: { '2xx': 2, '503': 2, '503 paused': 1, '504': 1 },
      failingMs: 5_020 - 150,
      failingAfterEndMs: 5_020 - 4_000,
      slowestMs: 50,
    });
  });

  it('counts answers by the half second they came in, from a second before the fault', () => {
    const { buckets, outageMs } = buildReport('db', window, 1_000_000, samples, {});
    expect(outageMs).toBe(4_000);
    expect(buckets[0]).toEqual({ fromMs: -1_000, outcomes: { '2xx': 1 }, slowestMs: 10 });
    expect(buckets.find((bucket) => bucket.fromMs === 0)).toEqual({ fromMs: 0, outcomes: { '503': 1 }, slowestMs: 50 });
    expect(buckets.find((bucket) => bucket.fromMs === 4_500)).toEqual({ fromMs: 4_500, outcomes: { '503 paused': 1 }, slowestMs: 5 });
  });

  it('reports no failing time when every answer was a success', () => {
    const [get] = buildReport('blip', window, 1_000_000, [sample(1_000, 1_010, 200), sample(3_000, 3_020, 201)], {}).kinds;
    expect(get).toMatchObject({ failingMs: 0, failingAfterEndMs: 0, outcomes: { '2xx': 2 } });
  });
});
