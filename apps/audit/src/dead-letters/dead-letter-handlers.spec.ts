import { GrpcStatus } from '@libs/grpc';
import { deadLetterHandlers } from './dead-letter-handlers';
import type { DeadLetterQueue } from './dead-letter-queue';

/** A queue that only says its name and depth: which queue a call reached is what is tested here. */
const queue = (name: string, depth: number) => ({ name, depth: async () => depth }) as unknown as DeadLetterQueue;

describe('dead-letter calls', () => {
  const handlers = deadLetterHandlers({ finance: queue('audit.finance-events.dead', 3), scheduling: queue('audit.scheduling-events.dead', 1) });

  it("serve finance's queue when no stream is named, and each stream's by name", async () => {
    expect(await handlers.getDeadLetters({})).toEqual({ queue: 'audit.finance-events.dead', depth: 3 });
    expect(await handlers.getDeadLetters({ stream: '' })).toEqual({ queue: 'audit.finance-events.dead', depth: 3 });
    expect(await handlers.getDeadLetters({ stream: 'scheduling' })).toEqual({ queue: 'audit.scheduling-events.dead', depth: 1 });
  });

  it.each(['billing', 'toString', '__proto__', 'x'.repeat(10_000)])('refuse the stream %#, naming the field', async (stream) => {
    await expect(handlers.getDeadLetters({ stream })).rejects.toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT, fieldErrors: [{ field: 'stream' }] });
    await expect(handlers.replayDeadLetters({ stream, limit: 1 }, { requestId: 'r' })).rejects.toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
  });
});
