import { reuseFor } from './single-flight';

/** A computation that counts its runs and settles only when the test says so. */
function controlled() {
  const settle: Array<{ resolve: (value: number) => void; reject: (error: Error) => void }> = [];
  let runs = 0;
  const compute = () =>
    new Promise<number>((resolve, reject) => {
      runs += 1;
      settle.push({ resolve, reject });
    });
  return { compute, settle, runs: () => runs };
}

describe('reuseFor', () => {
  it('runs once for concurrent callers, reuses the result within the window, and runs again after it', async () => {
    let clock = 1_000;
    const { compute, settle, runs } = controlled();
    const shared = reuseFor(1_000, compute, () => clock);

    const concurrent = Array.from({ length: 50 }, () => shared());
    expect(runs()).toBe(1);
    settle[0].resolve(7);
    expect(await Promise.all(concurrent)).toEqual(Array(50).fill(7));

    clock += 999;
    expect(await shared()).toBe(7);
    expect(runs()).toBe(1);

    clock += 1;
    const next = shared();
    expect(runs()).toBe(2);
    settle[1].resolve(8);
    expect(await next).toBe(8);
  });

  it('keeps sharing a computation that outlasts the window', async () => {
    let clock = 0;
    const { compute, settle, runs } = controlled();
    const shared = reuseFor(1_000, compute, () => clock);
    const first = shared();
    clock += 5_000;
    const second = shared();
    expect(runs()).toBe(1);
    settle[0].resolve(1);
    expect(await Promise.all([first, second])).toEqual([1, 1]);
  });

  it('does not reuse a failure', async () => {
    const { compute, settle, runs } = controlled();
    const shared = reuseFor(1_000, compute, () => 0);
    const failed = shared();
    settle[0].reject(new Error('down'));
    await expect(failed).rejects.toThrow('down');
    const retried = shared();
    expect(runs()).toBe(2);
    settle[1].resolve(2);
    expect(await retried).toBe(2);
  });
});
