import { retryWithinDeadline, type RetryOptions } from './retry';

class Unavailable extends Error {}
class NotFound extends Error {}

/** A fake clock: sleeping advances it, so the tests see exactly which waits were chosen. */
function clock(start = 1_000_000) {
  let time = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => time,
    sleep: async (ms: number) => {
      slept.push(ms);
      time += ms;
    },
    advance: (ms: number) => {
      time += ms;
    },
  };
}

function options(fake: ReturnType<typeof clock>, overrides: Partial<RetryOptions> = {}): RetryOptions {
  return {
    deadline: fake.now() + 5_000,
    policy: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 },
    isRetryable: (error) => error instanceof Unavailable,
    now: fake.now,
    sleep: fake.sleep,
    random: () => 0.5,
    ...overrides,
  };
}

describe('retryWithinDeadline', () => {
  it('retries a retryable failure and returns the first success', async () => {
    const fake = clock();
    let calls = 0;
    const result = await retryWithinDeadline(async () => {
      calls += 1;
      if (calls < 3) throw new Unavailable('down');
      return 'answer';
    }, options(fake));
    expect(result).toBe('answer');
    expect(calls).toBe(3);
  });

  it('does not retry when less time is left than the failed attempt took (it would only end in a timeout)', async () => {
    const fake = clock();
    const durations: number[] = [];
    // A service that waited 3 s for a database connection, then answered UNAVAILABLE: 2 s of the 5 s remain.
    await expect(
      retryWithinDeadline(async (remainingMs) => {
        durations.push(remainingMs);
        fake.advance(3_000);
        throw new Unavailable('no database connection in time');
      }, options(fake)),
    ).rejects.toBeInstanceOf(Unavailable);
    expect(durations).toEqual([5_000]);
    expect(fake.slept).toEqual([]);
  });

  it('still retries a slow failure when the deadline leaves room for another like it', async () => {
    const fake = clock();
    let calls = 0;
    const result = await retryWithinDeadline(async () => {
      calls += 1;
      fake.advance(1_000);
      if (calls < 2) throw new Unavailable('slow refusal');
      return 'answer';
    }, options(fake));
    expect(result).toBe('answer');
    expect(calls).toBe(2);
  });

  it('never retries an error that is not retryable', async () => {
    const fake = clock();
    let calls = 0;
    await expect(
      retryWithinDeadline(async () => {
        calls += 1;
        throw new NotFound('no such thing');
      }, options(fake)),
    ).rejects.toBeInstanceOf(NotFound);
    expect(calls).toBe(1);
    expect(fake.slept).toEqual([]);
  });

  it('stops after maxAttempts and rethrows the last error', async () => {
    const fake = clock();
    let calls = 0;
    await expect(
      retryWithinDeadline(async () => {
        calls += 1;
        throw new Unavailable(`attempt ${calls}`);
      }, options(fake)),
    ).rejects.toThrow('attempt 4');
    expect(calls).toBe(4);
  });

  it('waits a random share of a ceiling that doubles, capped at maxDelayMs', async () => {
    const fake = clock();
    const draws = [0.5, 0.999, 0.25];
    await expect(
      retryWithinDeadline(
        async () => {
          throw new Unavailable('down');
        },
        options(fake, { random: () => draws.shift() ?? 0, policy: { maxAttempts: 4, baseDelayMs: 400, maxDelayMs: 1_000 } }),
      ),
    ).rejects.toBeInstanceOf(Unavailable);
    // ceilings 400, 800, 1000 (capped); delays are the drawn share of each
    expect(fake.slept).toEqual([200, 799, 250]);
  });

  it('gives up instead of waiting past the deadline, and gives each attempt only the time left', async () => {
    const fake = clock();
    const budgets: number[] = [];
    await expect(
      retryWithinDeadline(
        async (remainingMs) => {
          budgets.push(remainingMs);
          fake.advance(Math.min(60, remainingMs)); // an attempt fails slowly, but never outlives its budget
          throw new Unavailable('down');
        },
        options(fake, { deadline: fake.now() + 300, random: () => 0.99 }),
      ),
    ).rejects.toBeInstanceOf(Unavailable);
    expect(budgets).toEqual([300, 300 - 60 - 99]);
    expect(fake.now() - 1_000_000).toBeLessThanOrEqual(300);
  });
});
