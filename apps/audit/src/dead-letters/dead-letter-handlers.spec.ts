import { GrpcStatus, type CallContext } from '@libs/grpc';
import { deadLetterHandlers } from './dead-letter-handlers';
import type { DeadLetterQueue } from './dead-letter-queue';

/** A queue that only says its name and depth: which queue a call reached is what is tested here. */
const queue = (name: string, depth: number) => ({ name, depth: async () => depth }) as unknown as DeadLetterQueue;

const asAdmin: CallContext = { requestId: 'spec', actor: { userId: 'admin-1', role: 'admin' } };

describe('dead-letter calls', () => {
  const handlers = deadLetterHandlers({
    finance: queue('audit.finance-events.dead', 3),
    scheduling: queue('audit.scheduling-events.dead', 1),
    identity: queue('audit.identity-events.dead', 0),
  });

  it("serve finance's queue when no stream is named, and each stream's by name", async () => {
    expect(await handlers.getDeadLetters({}, asAdmin)).toEqual({ queue: 'audit.finance-events.dead', depth: 3 });
    expect(await handlers.getDeadLetters({ stream: '' }, asAdmin)).toEqual({ queue: 'audit.finance-events.dead', depth: 3 });
    expect(await handlers.getDeadLetters({ stream: 'scheduling' }, asAdmin)).toEqual({ queue: 'audit.scheduling-events.dead', depth: 1 });
  });

  it('refuse a role without the permission, and a call without an actor', async () => {
    const bursar: CallContext = { requestId: 'spec', actor: { userId: 'bursar-1', role: 'bursar' } };
    await expect(handlers.getDeadLetters({}, bursar)).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
    await expect(handlers.replayDeadLetters({ limit: 1 }, bursar)).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
    await expect(handlers.getDeadLetters({}, { requestId: 'spec' })).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
  });

  it.each(['billing', 'toString', '__proto__', 'x'.repeat(10_000)])('refuse the stream %#, naming the field', async (stream) => {
    await expect(handlers.getDeadLetters({ stream }, asAdmin)).rejects.toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT, fieldErrors: [{ field: 'stream' }] });
    await expect(handlers.replayDeadLetters({ stream, limit: 1 }, asAdmin)).rejects.toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
  });
});
