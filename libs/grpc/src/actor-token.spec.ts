import { sign } from 'node:crypto';
import { Metadata, status, type ServerUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { keyPairOf } from '@libs/signing';
import { createLogger } from '@libs/logging';
import { metricsRegistry } from '@libs/metrics';
import { ActorSigner, ActorVerifier, TOKEN_LIFETIME_MS, type Actor, type CallTarget } from './actor-token';
import { outgoingMetadata } from './client';
import { unaryHandler } from './handler';
import { METADATA } from './metadata';

const GATEWAY_SECRET = 'the gateway actor secret of some length';
const gateway = new ActorSigner(GATEWAY_SECRET);
const admin: Actor = { userId: 'u-1', role: 'admin' };
const LIST = '/finance.v1.FinanceService/ListTransactions';
const CREATE = '/finance.v1.FinanceService/CreateTransaction';
const toFinanceList: CallTarget = { audience: 'finance', path: LIST };
/** What finance trusts: the gateway's public key, and nothing of its private one. */
const finance = new ActorVerifier('finance', keyPairOf(GATEWAY_SECRET).publicKey.x);

/** What a service handler of `path` in `service` answers a call carrying this metadata: its actor, or the refusal. */
function handle(metadata: Metadata, path = LIST, verifier = finance): Promise<Actor | undefined> {
  const handler = unaryHandler({ logger: createLogger('test', 'silent'), actors: verifier }, path, async (_request: object, context) => context.actor);
  return new Promise((resolve, reject) => {
    const call = { metadata, request: {}, getDeadline: () => Infinity, sendMetadata: () => undefined } as unknown as ServerUnaryCall<object, Actor | undefined>;
    handler(call, (error, actor) => (error ? reject(error as ServiceError) : resolve(actor ?? undefined)));
  });
}

const tokenFor = (actor: Actor, target: CallTarget, signer = gateway) => signer.sign(actor, target);
const withToken = (token: string) => {
  const metadata = new Metadata();
  metadata.set(METADATA.actorToken, token);
  return metadata;
};
const refusals = async (reason: string) =>
  (await metricsRegistry().getSingleMetric('grpc_actor_refused_total')?.get())?.values.find((v) => v.labels.reason === reason)?.value ?? 0;

/** Expects the call to be refused as UNAUTHENTICATED for `reason`, and counted once under it. */
async function expectRefused(call: () => Promise<unknown>, reason: string): Promise<void> {
  const before = await refusals(reason);
  await expect(call()).rejects.toMatchObject({ code: status.UNAUTHENTICATED, details: `the actor token was refused (${reason})` });
  expect(await refusals(reason)).toBe(before + 1);
}

/** The token with its claims changed and its signature kept. */
function tampered(token: string, change: (claims: Record<string, unknown>) => void): string {
  const [payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  change(claims);
  return `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}

afterEach(() => jest.restoreAllMocks());

describe('actor tokens', () => {
  it('lets a service believe the actor the gateway signed for it and the method called', async () => {
    expect(await handle(outgoingMetadata({ requestId: 'r', acting: { actor: admin, signer: gateway, target: toFinanceList } }))).toEqual(admin);
  });

  it('leaves a call without a token without an actor', async () => {
    expect(await handle(outgoingMetadata({ requestId: 'r' }))).toBeUndefined();
  });

  it('refuses a token for another service (a replay toward it)', async () => {
    const scheduling = new ActorVerifier('scheduling', keyPairOf(GATEWAY_SECRET).publicKey.x);
    await expectRefused(() => handle(withToken(tokenFor(admin, toFinanceList)), '/scheduling.v1.SchedulingService/ListAppointments', scheduling), 'audience');
  });

  it('refuses a token for another method of the same service', async () => {
    await expectRefused(() => handle(withToken(tokenFor(admin, toFinanceList)), CREATE), 'method');
  });

  it('refuses a token once its 30 s are over, and one issued in the future', async () => {
    const token = tokenFor({ userId: 'u-expiring', role: 'admin' }, toFinanceList);
    const issued = Date.now();
    expect(await handle(withToken(token))).toEqual({ userId: 'u-expiring', role: 'admin' });
    jest.spyOn(Date, 'now').mockReturnValue(issued + TOKEN_LIFETIME_MS);
    await expectRefused(() => handle(withToken(token)), 'expired');
    jest.spyOn(Date, 'now').mockReturnValue(issued - 60_000);
    await expectRefused(() => handle(withToken(token)), 'expired');
  });

  it('refuses a token signed by a key the service does not trust', async () => {
    await expectRefused(() => handle(withToken(tokenFor(admin, toFinanceList, new ActorSigner('another service holding a secret')))), 'unknown-key');
  });

  it('refuses a token whose claims were changed (role, method, lifetime), and one whose signature was', async () => {
    const token = tokenFor({ userId: 'u-2', role: 'reader' }, toFinanceList);
    await expectRefused(() => handle(withToken(tampered(token, (claims) => (claims.role = 'admin')))), 'bad-signature');
    await expectRefused(() => handle(withToken(tampered(token, (claims) => (claims.mth = CREATE))), CREATE), 'bad-signature');
    const [payload, signature] = token.split('.');
    await expectRefused(() => handle(withToken(`${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`)), 'bad-signature');
    await expectRefused(() => handle(withToken(`${payload}.${signature.slice(2)}`)), 'bad-signature');
  });

  it('refuses what is no token at all', async () => {
    for (const text of ['junk', 'a.b.c', `${Buffer.from('{"sub":1}').toString('base64url')}.sig`, 'x'.repeat(5_000)]) {
      await expectRefused(() => handle(withToken(text)), 'malformed');
    }
  });

  it('refuses a token made to live longer than 30 s, even by the gateway itself', async () => {
    const token = tokenFor({ userId: 'u-long', role: 'admin' }, toFinanceList);
    // Re-signed with the lifetime stretched: only a holder of the private key could, and the service still refuses it.
    const [payload] = tampered(token, (claims) => (claims.exp = (claims.iat as number) + TOKEN_LIFETIME_MS + 1)).split('.');
    const { privateKey } = keyPairOf(GATEWAY_SECRET);
    const signature = sign(null, Buffer.from(`actor-token:v1.${payload}`), privateKey).toString('base64url');
    await expectRefused(() => handle(withToken(`${payload}.${signature}`)), 'malformed');
  });

  it('reuses a token for the same actor, service and method, and makes another for anything else', () => {
    const first = tokenFor(admin, toFinanceList);
    expect(tokenFor(admin, toFinanceList)).toBe(first);
    expect(tokenFor(admin, { audience: 'finance', path: CREATE })).not.toBe(first);
    expect(tokenFor(admin, { audience: 'audit', path: LIST })).not.toBe(first);
    expect(tokenFor({ userId: 'u-1', role: 'reader' }, toFinanceList)).not.toBe(first);
  });
});
