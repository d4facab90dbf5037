import { Metadata, type ServerUnaryCall } from '@grpc/grpc-js';
import { createLogger } from '@libs/logging';
import { ActorSigner, type Actor } from './actor-signature';
import { outgoingMetadata } from './client';
import { unaryHandler } from './handler';
import { METADATA } from './metadata';

const signer = new ActorSigner('a shared secret of some length');
const admin: Actor = { userId: 'u-1', role: 'admin' };

/** The actor a service handler sees for a call carrying this metadata. */
function actorSeenWith(metadata: Metadata): Promise<Actor | undefined> {
  const handler = unaryHandler({ logger: createLogger('test', 'silent'), actors: signer }, 'Who', async (_request: object, context) => context.actor);
  return new Promise((resolve, reject) => {
    const call = { metadata, request: {}, getDeadline: () => Infinity } as unknown as ServerUnaryCall<object, Actor | undefined>;
    handler(call, (error, actor) => (error ? reject(error) : resolve(actor ?? undefined)));
  });
}

describe('signed actors', () => {
  it('lets a service believe the actor the gateway signed', async () => {
    expect(await actorSeenWith(outgoingMetadata({ requestId: 'r', actor: admin }, signer))).toEqual(admin);
  });

  it('ignores an actor sent without a signature, as anyone reaching the port could', async () => {
    const forged = new Metadata();
    forged.set(METADATA.actorId, 'u-1');
    forged.set(METADATA.actorRole, 'admin');
    expect(await actorSeenWith(forged)).toBeUndefined();
  });

  it('ignores a signed actor whose role was changed', async () => {
    const metadata = outgoingMetadata({ actor: { userId: 'u-2', role: 'reader' } }, signer);
    metadata.set(METADATA.actorRole, 'admin');
    expect(await actorSeenWith(metadata)).toBeUndefined();
  });

  it('ignores a signature made with another secret', async () => {
    expect(await actorSeenWith(outgoingMetadata({ actor: admin }, new ActorSigner('some other secret value')))).toBeUndefined();
  });

  it('refuses stale signatures', () => {
    const { signature } = signer.sign(admin);
    const longAgo = String(Date.now() - 60 * 60_000);
    expect(signer.verify(admin, longAgo, signature)).toBe(false);
    expect(signer.verify(admin, 'not a time', signature)).toBe(false);
  });

  it('reuses a signature for a while, and still refuses a changed copy of one it has checked', () => {
    const first = signer.sign(admin);
    expect(signer.sign(admin)).toEqual(first);
    expect(signer.sign({ userId: 'u-1', role: 'reader' }).signature).not.toBe(first.signature);
    expect(signer.verify(admin, first.issuedAt, first.signature)).toBe(true);
    expect(signer.verify(admin, first.issuedAt, first.signature)).toBe(true);
    const altered = `${first.signature.startsWith('A') ? 'B' : 'A'}${first.signature.slice(1)}`;
    expect(signer.verify(admin, first.issuedAt, altered)).toBe(false);
    expect(signer.verify({ userId: 'u-1', role: 'reader' }, first.issuedAt, first.signature)).toBe(false);
    expect(new ActorSigner('some other secret value').verify(admin, first.issuedAt, first.signature)).toBe(false);
  });
});
