import { HttpProblem } from '@libs/http-problems';
import { HashGate } from './hash-gate';

describe('HashGate: password hashes at once', () => {
  it('runs at most 2 of 40 at a time, queues 32 and refuses the rest with 503 and Retry-After', async () => {
    const gate = new HashGate(2, 32);
    let running = 0;
    let mostAtOnce = 0;
    // A hash that holds its slot until the next turn of the event loop.
    const hash = async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return 'hashed';
    };
    const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => gate.run(hash)));

    expect(mostAtOnce).toBe(2);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(34);
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(refused).toHaveLength(6);
    for (const problem of refused) {
      expect(problem).toBeInstanceOf(HttpProblem);
      expect(problem).toMatchObject({ status: 503, options: { headers: { 'Retry-After': '1' } } });
    }
  });

  it('frees the slot of a hash that fails, and serves the queue after a burst', async () => {
    const gate = new HashGate(1, 1);
    const failing = gate.run(() => Promise.reject(new Error('boom')));
    const queued = gate.run(async () => 'second');
    await expect(failing).rejects.toThrow('boom');
    await expect(queued).resolves.toBe('second');
    await expect(gate.run(async () => 'third')).resolves.toBe('third');
  });
});
