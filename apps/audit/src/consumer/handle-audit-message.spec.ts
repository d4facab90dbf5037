import { Writable } from 'node:stream';
import type { ConsumeMessage } from 'amqplib';
import pino from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import { SUBJECTS_VERSION } from '@libs/contracts';
import { openServiceDatabase } from '@libs/db';
import { createScratchDatabase, startTcpProxy, waitFor, type ScratchDatabase, type TcpProxy } from '@libs/testing';
import { testEvent } from '../entries/test-events';
import { migrations } from '../migrations';
import { auditMessageHandler } from './handle-audit-message';

const messageOf = (body: unknown): ConsumeMessage =>
  ({
    content: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    fields: {},
    properties: { messageId: 'm1', headers: {} },
  }) as unknown as ConsumeMessage;

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
  const handle = () => auditMessageHandler(viaProxy, logger, { initialDelayMs: 20, maxDelayMs: 100 });
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
});
