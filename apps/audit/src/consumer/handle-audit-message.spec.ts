import { Writable } from 'node:stream';
import type { ConsumeMessage } from 'amqplib';
import pino from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import { generateEventSecrets, trustedKeysOf, type EventStream } from '@libs/bus';
import { SUBJECTS_VERSION } from '@libs/contracts';
import { openServiceDatabase } from '@libs/db';
import { metricsRegistry } from '@libs/metrics';
import { TrustedEventKeys } from '@libs/signing';
import { createScratchDatabase, signedHeaders, startTcpProxy, waitFor, type ScratchDatabase, type TcpProxy } from '@libs/testing';
import { testEvent } from '../entries/test-events';
import { migrations } from '../migrations';
import { auditMessageHandlers } from './handle-audit-message';

/** The producers' keys the service trusts, and one no service was given. */
const producers = { eventSecrets: generateEventSecrets() };
const stranger = { eventSecrets: generateEventSecrets() };
const trust = new TrustedEventKeys(trustedKeysOf(producers.eventSecrets));

/** A message as it is delivered from `stream`'s queue, signed by `signer`'s key for `signedAs` (finance's unless told). */
function messageOf(body: unknown, how: { signer?: typeof producers; signedAs?: EventStream; headers?: Record<string, string> } = {}): ConsumeMessage {
  const content = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const parts = { routingKey: 'transaction.created', messageId: 'm1', body: content };
  const headers = how.headers ?? signedHeaders(how.signer ?? producers, how.signedAs ?? 'finance', parts);
  return { content, fields: { routingKey: parts.routingKey }, properties: { messageId: parts.messageId, headers } } as unknown as ConsumeMessage;
}

const refusedSoFar = async (reason: string) =>
  (await metricsRegistry().getSingleMetric('audit_events_refused_total')?.get())?.values.find((value) => value.labels.reason === reason)?.value ?? 0;

describe('auditMessageHandler (PostgreSQL behind a proxy the test can cut)', () => {
  let db: ScratchDatabase;
  let proxy: TcpProxy;
  let viaProxy: Sequelize;
  const logLines: string[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  const handle = (stream: EventStream = 'finance') => auditMessageHandlers(viaProxy, logger, trust, { initialDelayMs: 20, maxDelayMs: 100 })(stream);
  const stored = async (eventId: string) =>
    (await db.sequelize.query('SELECT 1 FROM audit_entries WHERE event_id = $1', { bind: [eventId], type: QueryTypes.SELECT }))
      .length;

  beforeAll(async () => {
    db = await createScratchDatabase('audit', migrations);
    proxy = await startTcpProxy(db.url);
    viaProxy = await openServiceDatabase({ url: proxy.proxiedUrl(db.url), poolMax: 2, migrations, log: () => undefined });
  });
  afterAll(async () => {
    await viaProxy?.close();
    await proxy?.close();
    await db?.drop();
  });

  it('holds a valid event while the database is unreachable and stores it once the database is back', async () => {
    const event = testEvent();
    proxy.cut();
    const outcome = handle()(messageOf(event));
    await waitFor('three failed attempts', async () =>
      logLines.filter((line) => line.includes('cannot store the event yet')).length >= 3 ? true : undefined,
    );
    proxy.restore();
    // 'ack' after the store; never 'retry', which would spend one of the queue's delivery attempts.
    expect(await outcome).toBe('ack');
    expect(await stored(event.eventId)).toBe(1);
  });

  it('acks a redelivered event without storing it twice', async () => {
    const event = testEvent();
    expect(await handle()(messageOf(event))).toBe('ack');
    expect(await handle()(messageOf(event))).toBe('ack');
    expect(await stored(event.eventId)).toBe(1);
  });

  it('returns an event the database refuses to the queue, which dead-letters it after its delivery limit', async () => {
    const event = testEvent({ after: { note: 'nul \u0000 inside' } }); // jsonb cannot hold U+0000
    expect(await handle()(messageOf(event))).toBe('retry');
    expect(await stored(event.eventId)).toBe(0);
  });

  it.each([
    ['not JSON', '{"eventId": '],
    ['not an event', { hello: 'world' }],
    ['an event with an unknown field', { ...testEvent(), extra: 1 }],
    ['an event of a version with subjects that lacks them', testEvent({ schemaVersion: SUBJECTS_VERSION })],
    ['an event of a version before subjects that carries them', testEvent({ schemaVersion: SUBJECTS_VERSION - 1, subjects: ['u1'] })],
  ])('dead-letters a message that is %s at once', async (_what, body) => {
    expect(await handle()(messageOf(body))).toBe('reject');
  });

  describe('refuses, never chains, dead-letters and counts an event its stream\'s producer did not sign', () => {
    it.each([
      ['unsigned', 'unsigned', () => ({ headers: {} })],
      ['signed with a key nobody was given', 'unknown_key', () => ({ signer: stranger })],
      ["signed with scheduling's key, on finance's stream", 'wrong_producer', () => ({ signedAs: 'scheduling' as const })],
    ])('%s', async (_what, reason, how) => {
      const event = testEvent();
      const before = await refusedSoFar(reason);
      expect(await handle()(messageOf(event, how()))).toBe('reject');
      expect(await stored(event.eventId)).toBe(0);
      expect(await refusedSoFar(reason)).toBe(before + 1);
    });

    it('altered after signing', async () => {
      const event = testEvent();
      const signed = messageOf(event);
      const altered = { ...signed, content: Buffer.from(JSON.stringify({ ...event, actor: { userId: 'someone-else', role: 'admin' } })) };
      const before = await refusedSoFar('bad_signature');
      expect(await handle()(altered)).toBe('reject');
      expect(await stored(event.eventId)).toBe(0);
      expect(await refusedSoFar('bad_signature')).toBe(before + 1);
    });

    it("signed by scheduling, on its own stream, but claiming finance's transaction.deleted", async () => {
      const event = testEvent({ action: 'transaction.deleted' });
      const before = await refusedSoFar('wrong_producer');
      expect(await handle('scheduling')(messageOf(event, { signedAs: 'scheduling' }))).toBe('reject');
      expect(await stored(event.eventId)).toBe(0);
      expect(await refusedSoFar('wrong_producer')).toBe(before + 1);
      expect(logLines.join('')).not.toContain(event.eventId); // the log says why, never what the body holds
    });
  });
});
