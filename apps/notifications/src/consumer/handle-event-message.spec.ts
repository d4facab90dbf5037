import type { ConsumeMessage } from 'amqplib';
import pino from 'pino';
import { QueryTypes } from 'sequelize';
import { generateEventSecrets, trustedKeysOf, type EventStream } from '@libs/bus';
import { metricsRegistry } from '@libs/metrics';
import { TrustedEventKeys } from '@libs/signing';
import { createScratchDatabase, signedHeaders, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { eventOf } from '../test-webhooks';
import { eventMessageHandler } from './handle-event-message';

const producers = { eventSecrets: generateEventSecrets() };

/** A message from finance's queue, signed with the key of `signedAs` (finance's unless told). */
function messageOf(body: unknown, signedAs: EventStream = 'finance'): ConsumeMessage {
  const content = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const parts = { routingKey: 'transaction.created', messageId: 'm1', body: content };
  return {
    content,
    fields: { routingKey: parts.routingKey },
    properties: { messageId: parts.messageId, headers: signedHeaders(producers, signedAs, parts) },
  } as unknown as ConsumeMessage;
}

describe('eventMessageHandler (PostgreSQL)', () => {
  let db: ScratchDatabase;
  let queued = 0;
  const handle = () =>
    eventMessageHandler('finance', {
      sequelize: db.sequelize,
      logger: pino({ level: 'silent' }),
      trust: new TrustedEventKeys(trustedKeysOf(producers.eventSecrets)),
      publicApiUrl: 'https://api.example.org',
      firstWaitMs: 0,
      queued: () => (queued += 1),
    });
  const stored = async (eventId: string) =>
    (await db.sequelize.query('SELECT 1 FROM events WHERE event_id = $1', { bind: [eventId], type: QueryTypes.SELECT })).length;

  beforeAll(async () => {
    db = await createScratchDatabase('notifications', migrations);
    await db.sequelize.query(`INSERT INTO recipients (user_id, role) VALUES ('bursar-1', 'bursar')`);
    await db.sequelize.query(
      `INSERT INTO endpoints (id, owner_id, url, event_types) VALUES ('00000000-0000-4000-8000-000000000001', 'bursar-1', 'https://hooks.example.org/', '{*}')`,
    );
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('stores an event once, with a delivery per endpoint it reaches, and acks a redelivery without a second', async () => {
    const event = eventOf({ action: 'transaction.created', entityType: 'transaction' });
    expect(await handle()(messageOf(event))).toBe('ack');
    expect(await handle()(messageOf(event))).toBe('ack');
    expect(await stored(event.eventId)).toBe(1);
    const deliveries = await db.sequelize.query('SELECT 1 FROM deliveries WHERE event_id = $1', { bind: [event.eventId], type: QueryTypes.SELECT });
    expect(deliveries).toHaveLength(1);
    expect(queued).toBe(1);
  });

  it('stores messages that arrive together in one transaction; one the database refuses fails alone', async () => {
    const handler = handle();
    const good = Array.from({ length: 5 }, () => eventOf({ action: 'transaction.created', entityType: 'transaction' }));
    const refused = eventOf({ action: 'payment.submitted', entityType: 'payment', subjects: ['nul \u0000 inside'] });
    const outcomes = await Promise.all([...good, refused, good[0]].map((event) => handler(messageOf(event))));
    expect(outcomes).toEqual(['ack', 'ack', 'ack', 'ack', 'ack', 'retry', 'ack']);
    for (const event of good) expect(await stored(event.eventId)).toBe(1);
    expect(await stored(refused.eventId)).toBe(0);
    const deliveries = await db.sequelize.query('SELECT 1 FROM deliveries WHERE event_id = ANY ($1::uuid[])', {
      bind: [good.map((event) => event.eventId)],
      type: QueryTypes.SELECT,
    });
    expect(deliveries).toHaveLength(good.length);
  });

  it('reads an event with fields it does not know (a newer version), and keeps only the thin reference', async () => {
    const event = { ...eventOf({ action: 'transaction.updated', entityType: 'transaction' }), somethingNew: true };
    expect(await handle()(messageOf(event))).toBe('ack');
    const [row] = await db.sequelize.query<{ object: unknown }>('SELECT object FROM events WHERE event_id = $1', {
      bind: [event.eventId],
      type: QueryTypes.SELECT,
    });
    expect(row.object).toEqual({
      type: 'transaction',
      id: event.entityIds[0],
      version: 1,
      url: `https://api.example.org/api/v1/transactions/${event.entityIds[0]}`,
    });
  });

  it('returns an event the database refuses to the queue, which dead-letters it after its delivery limit', async () => {
    const event = eventOf({ action: 'payment.submitted', entityType: 'payment', subjects: ['nul \u0000 inside'] });
    expect(await handle()(messageOf(event))).toBe('retry');
    expect(await stored(event.eventId)).toBe(0);
  });

  it.each([
    ['not JSON', '{"eventId": '],
    ['not an event', { hello: 'world' }],
  ])('dead-letters a message that is %s at once', async (_what, body) => {
    expect(await handle()(messageOf(body))).toBe('reject');
  });

  it("dead-letters, counts and never sends on an event signed by another producer's key", async () => {
    const refused = async () =>
      (await metricsRegistry().getSingleMetric('notifications_events_refused_total')?.get())?.values.find((value) => value.labels.reason === 'wrong_producer')
        ?.value ?? 0;
    const before = await refused();
    const event = eventOf({ action: 'transaction.deleted', entityType: 'transaction' });
    expect(await handle()(messageOf(event, 'scheduling'))).toBe('reject');
    expect(await stored(event.eventId)).toBe(0);
    expect(await refused()).toBe(before + 1);
  });
});
