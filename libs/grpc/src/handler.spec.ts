import { Metadata, type ServerUnaryCall } from '@grpc/grpc-js';
import { createLogger } from '@libs/logging';
import { unaryHandler, type CallContext } from './handler';

/** The context a handler sees for a call whose deadline grpc-js reports as given. */
function contextSeenWith(deadline: Date | number): Promise<CallContext> {
  const handler = unaryHandler({ logger: createLogger('test', 'silent'), actors: null }, 'Context', async (_request: object, context) => context);
  return new Promise((resolve, reject) => {
    const call = { metadata: new Metadata(), request: {}, getDeadline: () => deadline } as unknown as ServerUnaryCall<object, CallContext>;
    handler(call, (error, context) => (error || !context ? reject(error) : resolve(context)));
  });
}

describe('unaryHandler', () => {
  it("tells the handler when the caller stops waiting, whichever form grpc-js gives the deadline in", async () => {
    const deadline = new Date(Date.now() + 5_000);
    expect((await contextSeenWith(deadline)).deadline).toBe(deadline.getTime());
    expect((await contextSeenWith(deadline.getTime())).deadline).toBe(deadline.getTime());
  });

  it('leaves the deadline out for a call without one', async () => {
    expect((await contextSeenWith(Infinity)).deadline).toBeUndefined();
  });
});
