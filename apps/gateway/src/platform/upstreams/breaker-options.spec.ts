import CircuitBreaker from 'opossum';
import { GrpcStatus } from '@libs/grpc';
import { breakerOptions } from './breaker-options';

const grpcError = (code: GrpcStatus) => Object.assign(new Error(GrpcStatus[code]), { code, details: '', metadata: undefined });

describe('the upstream breaker', () => {
  let breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;
  let calls = 0;
  const fire = (outcome: () => Promise<unknown>) => breaker.fire(() => ((calls += 1), outcome())).catch((error: unknown) => error);
  const failWith = (code: GrpcStatus) => fire(() => Promise.reject(grpcError(code)));

  beforeEach(() => {
    calls = 0;
    breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), breakerOptions({ timeoutMs: 5_000, resetMs: 20 }));
  });
  afterEach(() => breaker.shutdown());

  async function openIt() {
    for (let i = 0; i < 10; i += 1) await failWith(GrpcStatus.DEADLINE_EXCEEDED);
    expect(breaker.opened).toBe(true);
  }

  it.each([
    ['UNAVAILABLE (the service answered: its database is away, or its channel refused at once)', GrpcStatus.UNAVAILABLE],
    ['INTERNAL', GrpcStatus.INTERNAL],
    ['NOT_FOUND', GrpcStatus.NOT_FOUND],
    ['RESOURCE_EXHAUSTED', GrpcStatus.RESOURCE_EXHAUSTED],
  ])('stays closed however many calls fail fast with %s', async (_what, code) => {
    for (let i = 0; i < 50; i += 1) await failWith(code);
    expect(breaker.closed).toBe(true);
    expect(calls).toBe(50);
  });

  it('opens when calls run into their deadline, then refuses without calling', async () => {
    await openIt();
    const refused = await fire(() => Promise.resolve('answer'));
    expect(refused).toMatchObject({ code: 'EOPENBREAKER' });
    expect(calls).toBe(10);
  });

  it('does not open on a few timeouts among many answers', async () => {
    for (let i = 0; i < 20; i += 1) await fire(() => Promise.resolve('answer'));
    for (let i = 0; i < 10; i += 1) await failWith(GrpcStatus.DEADLINE_EXCEEDED);
    expect(breaker.closed).toBe(true);
  });

  it('after the reset time lets one trial call through, refusing the others until it settles; its answer closes it', async () => {
    await openIt();
    await new Promise((resolve) => breaker.once('halfOpen', resolve));
    let answer: (value: string) => void = () => undefined;
    const trial = fire(() => new Promise<string>((resolve) => (answer = resolve)));
    expect(await fire(() => Promise.resolve('second'))).toMatchObject({ code: 'EOPENBREAKER' });
    answer('first');
    expect(await trial).toBe('first');
    expect(breaker.closed).toBe(true);
    expect(calls).toBe(11);
  });

  it('closes when the trial call fails fast (the upstream answers again), and opens again when it times out', async () => {
    await openIt();
    await new Promise((resolve) => breaker.once('halfOpen', resolve));
    await failWith(GrpcStatus.UNAVAILABLE);
    expect(breaker.closed).toBe(true);

    await openIt();
    await new Promise((resolve) => breaker.once('halfOpen', resolve));
    await failWith(GrpcStatus.DEADLINE_EXCEEDED);
    expect(breaker.opened).toBe(true);
  });
});
