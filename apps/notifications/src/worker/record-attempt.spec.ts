import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { parseRetrySchedule, type DeliveryOutcome } from '@libs/webhooks';
import { migrations } from '../migrations';
import type { ClaimedDelivery } from './claim';
import { recordAttempt } from './record-attempt';

const SCHEDULE = parseRetrySchedule('0s,1s');
const OWNER = randomUUID();
const failedAttempt = (): DeliveryOutcome => ({
  result: 'retry',
  status: 500,
  address: '127.0.0.1',
  excerpt: 'down for maintenance',
  truncated: false,
  startedAt: new Date(),
  durationMs: 3,
});

/**
 * recordAttempt against a real database, racing the statements of an endpoint's deletion (which locks the endpoint,
 * then its deliveries by cascade): an attempt that finished while its endpoint was being deleted must neither
 * deadlock with the delete nor fail on its vanished delivery.
 */
describe('recordAttempt beside an endpoint being deleted (real PostgreSQL)', () => {
  let db: ScratchDatabase;

  beforeAll(async () => {
    db = await createScratchDatabase('notifications', migrations);
  });
  afterAll(() => db?.drop());

  /** An endpoint with one delivery leased by OWNER, as the claim leaves it. */
  async function leasedDelivery(): Promise<ClaimedDelivery> {
    const [endpointId, eventId, deliveryId] = [randomUUID(), randomUUID(), randomUUID()];
    const statements: [string, unknown[]][] = [
      ["INSERT INTO recipients (user_id, role) VALUES ('bursar-1', 'bursar') ON CONFLICT DO NOTHING", []],
      ["INSERT INTO endpoints (id, owner_id, url, event_types) VALUES ($1, 'bursar-1', 'https://example.org/hook', '{*}')", [endpointId]],
      ["INSERT INTO events (event_id, type, source, occurred_at, object) VALUES ($1, 'transaction.created', 'finance', now(), '{}')", [eventId]],
      [
        `INSERT INTO deliveries (id, endpoint_id, event_id, next_attempt_at, lease_owner, lease_until)
         VALUES ($1, $2, $3, now(), $4, now() + interval '1 minute')`,
        [deliveryId, endpointId, eventId, OWNER],
      ],
    ];
    for (const [sql, bind] of statements) await db.sequelize.query(sql, { bind });
    return {
      id: deliveryId,
      endpoint_id: endpointId,
      event_id: eventId,
      schedule_position: 0,
      url: 'https://example.org/hook',
      secrets: [],
      type: 'transaction.created',
      occurred_at: new Date(),
      object: { id: 'x', type: 'transaction' } as ClaimedDelivery['object'],
    };
  }

  const count = async (sql: string, id: string) =>
    (await db.sequelize.query<{ n: number }>(sql, { bind: [id], type: QueryTypes.SELECT }))[0].n;

  it('waits for a delete that locked the endpoint first, then records nothing (orphaned), and the delete commits', async () => {
    const claimed = await leasedDelivery();
    const deleting = await db.sequelize.transaction();
    await db.sequelize.query('SELECT 1 FROM endpoints WHERE id = $1 FOR UPDATE', { bind: [claimed.endpoint_id], transaction: deleting });
    const recording = recordAttempt(db.sequelize, claimed, OWNER, failedAttempt(), SCHEDULE);
    // Give the attempt time to reach the endpoint's lock (and, before the fix, to lock the delivery behind it).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.sequelize.query('DELETE FROM endpoints WHERE id = $1', { bind: [claimed.endpoint_id], transaction: deleting });
    await deleting.commit();
    await expect(recording).resolves.toEqual({ verdict: 'orphaned' });
    expect(await count('SELECT count(*)::int AS n FROM deliveries WHERE endpoint_id = $1', claimed.endpoint_id)).toBe(0);
  });

  it('records the attempt when the endpoint is still there, and a later delete takes the delivery and its attempts', async () => {
    const claimed = await leasedDelivery();
    await expect(recordAttempt(db.sequelize, claimed, OWNER, failedAttempt(), SCHEDULE)).resolves.toEqual({ verdict: 'retry' });
    expect(await count('SELECT count(*)::int AS n FROM attempts WHERE delivery_id = $1', claimed.id)).toBe(1);
    await db.sequelize.query('DELETE FROM endpoints WHERE id = $1', { bind: [claimed.endpoint_id] });
    expect(await count('SELECT count(*)::int AS n FROM attempts WHERE delivery_id = $1', claimed.id)).toBe(0);
  });
});
