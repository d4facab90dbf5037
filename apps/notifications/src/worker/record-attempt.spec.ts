import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { parseRetrySchedule, type DeliveryOutcome } from '@libs/webhooks';
import { migrations } from '../migrations';
import type { ClaimedDelivery } from './claim';
import { recordAttempts } from './record-attempt';

const SCHEDULE = parseRetrySchedule('0s,1s');
const OWNER = randomUUID();
/** An attempt answered with `status`, which decides its result. */
const answeredAttempt = (status: number, startedAt = new Date()): DeliveryOutcome => ({
  result: status < 300 ? 'delivered' : status === 410 ? 'gone' : 'retry',
  status,
  address: '127.0.0.1',
  excerpt: 'down for maintenance',
  truncated: false,
  startedAt,
  durationMs: 3,
});
const failedAttempt = () => answeredAttempt(500);

/**
 * recordAttempts against a real database: racing the statements of an endpoint's deletion (which locks the endpoint,
 * then its deliveries by cascade), an attempt that finished while its endpoint was being deleted must neither
 * deadlock with the delete nor fail on its vanished delivery; attempts recorded together each get their own verdict.
 */
describe('recordAttempts (real PostgreSQL)', () => {
  let db: ScratchDatabase;

  beforeAll(async () => {
    db = await createScratchDatabase('notifications', migrations);
  });
  afterAll(() => db?.drop());

  /** An endpoint with one delivery leased by OWNER, as the claim leaves it. */
  async function leasedDelivery(endpointId: string = randomUUID()): Promise<ClaimedDelivery> {
    const [eventId, deliveryId] = [randomUUID(), randomUUID()];
    const statements: [string, unknown[]][] = [
      ["INSERT INTO recipients (user_id, role) VALUES ('bursar-1', 'bursar') ON CONFLICT DO NOTHING", []],
      ["INSERT INTO endpoints (id, owner_id, url, event_types) VALUES ($1, 'bursar-1', 'https://example.org/hook', '{*}') ON CONFLICT DO NOTHING", [endpointId]],
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
    const recording = recordAttempts(db.sequelize, [{ claimed, outcome: failedAttempt() }], OWNER, SCHEDULE);
    // Give the attempt time to reach the endpoint's lock (and, before the fix, to lock the delivery behind it).
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.sequelize.query('DELETE FROM endpoints WHERE id = $1', { bind: [claimed.endpoint_id], transaction: deleting });
    await deleting.commit();
    await expect(recording).resolves.toEqual([{ verdict: 'orphaned' }]);
    expect(await count('SELECT count(*)::int AS n FROM deliveries WHERE endpoint_id = $1', claimed.endpoint_id)).toBe(0);
  });

  it('records the attempt when the endpoint is still there, and a later delete takes the delivery and its attempts', async () => {
    const claimed = await leasedDelivery();
    await expect(recordAttempts(db.sequelize, [{ claimed, outcome: failedAttempt() }], OWNER, SCHEDULE)).resolves.toEqual([{ verdict: 'retry' }]);
    expect(await count('SELECT count(*)::int AS n FROM attempts WHERE delivery_id = $1', claimed.id)).toBe(1);
    await db.sequelize.query('DELETE FROM endpoints WHERE id = $1', { bind: [claimed.endpoint_id] });
    expect(await count('SELECT count(*)::int AS n FROM attempts WHERE delivery_id = $1', claimed.id)).toBe(0);
  });

  it('records attempts that ended together in one transaction, each with its own verdict', async () => {
    const failedFirst = await leasedDelivery();
    const later = await leasedDelivery(failedFirst.endpoint_id);
    const gone = await leasedDelivery();
    const records = await recordAttempts(
      db.sequelize,
      [
        { claimed: later, outcome: answeredAttempt(204) },
        { claimed: failedFirst, outcome: answeredAttempt(500, new Date(Date.now() - 1_000)) },
        { claimed: gone, outcome: answeredAttempt(410) },
      ],
      OWNER,
      SCHEDULE,
    );
    expect(records).toEqual([{ verdict: 'delivered' }, { verdict: 'retry' }, { verdict: 'gone', disabled: 'gone' }]);
    const states = await db.sequelize.query<{ id: string; status: string; lease_owner: string | null }>(
      'SELECT id, status, lease_owner FROM deliveries WHERE id = ANY ($1::uuid[])',
      { bind: [[later.id, failedFirst.id, gone.id]], type: QueryTypes.SELECT },
    );
    expect(Object.fromEntries(states.map((row) => [row.id, [row.status, row.lease_owner]]))).toEqual({
      [later.id]: ['delivered', null],
      [failedFirst.id]: ['pending', null],
      [gone.id]: ['pending', null],
    });
    // The failure started before the success: the endpoint is not failing.
    expect(await count('SELECT count(*)::int AS n FROM endpoints WHERE id = $1 AND failing_since IS NULL AND enabled', later.endpoint_id)).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM endpoints WHERE id = $1 AND NOT enabled', gone.endpoint_id)).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM attempts WHERE delivery_id = $1', failedFirst.id)).toBe(1);
  });
});
