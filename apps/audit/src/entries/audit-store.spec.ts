import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { appendEvent, appendEvents } from './audit-store';
import { verifyChain } from './chain-verify';
import { entryHash, GENESIS_HASH } from './entry-hash';
import { testCheckpointKeys, testEvent } from './test-events';

interface ChainRow {
  sequence: string;
  prev_hash: string;
  hash: string;
}

describe('audit store (PostgreSQL)', () => {
  let db: ScratchDatabase;
  const chain = () =>
    db.sequelize.query<ChainRow>('SELECT sequence::text, prev_hash, hash FROM audit_entries ORDER BY audit_entries.sequence', {
      type: QueryTypes.SELECT,
    });

  beforeEach(async () => {
    db = await createScratchDatabase('audit', migrations);
  });
  afterEach(() => db?.drop());

  it('stores an event once, however often it is delivered', async () => {
    const first = testEvent();
    expect(await appendEvent(db.sequelize, first)).toBe('stored');
    expect(await appendEvent(db.sequelize, first)).toBe('duplicate');
    expect(await chain()).toHaveLength(1);
  });

  it('stores a batch in order, once per eventId, also when an id repeats within the batch', async () => {
    const [a, b, c] = [testEvent(), testEvent(), testEvent()];
    await appendEvent(db.sequelize, b);
    expect(await appendEvents(db.sequelize, [a, b, c, a])).toEqual(['stored', 'duplicate', 'stored', 'duplicate']);
    const entries = await chain();
    expect(entries).toHaveLength(3);
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({ intact: true, checked: '3', lastHash: entries[2].hash });
    expect(entries[2].hash).toBe(entryHash(entries[1].hash, c));
  });

  it('chains each entry to the one before it', async () => {
    const events = [testEvent(), testEvent(), testEvent()];
    for (const e of events) await appendEvent(db.sequelize, e);
    const entries = await chain();
    expect(entries[0].prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < entries.length; i += 1) expect(entries[i].prev_hash).toBe(entries[i - 1].hash);
    expect(entries[2].hash).toBe(entryHash(entries[2].prev_hash, events[2]));
  });

  it('keeps the chain linear when events arrive concurrently', async () => {
    await Promise.all(Array.from({ length: 40 }, () => appendEvent(db.sequelize, testEvent())));
    const prevHashes = (await chain()).map((e) => e.prev_hash);
    expect(prevHashes).toHaveLength(40);
    expect(new Set(prevHashes).size).toBe(40);
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({ intact: true, checked: '40' });
  });

  it('verifies an untouched chain, including events without before/after and with odd JSON', async () => {
    const bare: Record<string, unknown> = testEvent();
    delete bare.before;
    delete bare.after;
    await appendEvent(db.sequelize, bare as never);
    await appendEvent(db.sequelize, testEvent({ occurredAt: '2026-09-01T10:00:00.123456+02:00', after: { é: 'ü', n: 1.5, z: [] } }));
    const last = (await chain())[1];
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toEqual({ intact: true, checked: '2', lastHash: last.hash, checkpointsChecked: '0' });
  });

  it('reports an empty chain as intact', async () => {
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toEqual({ intact: true, checked: '0', lastHash: '', checkpointsChecked: '0' });
  });

  it('names the entry whose content was altered', async () => {
    const events = Array.from({ length: 5 }, () => testEvent());
    for (const e of events) await appendEvent(db.sequelize, e);
    await db.sequelize.query(`UPDATE audit_entries SET after = '{"amount":"999"}' WHERE event_id = $1`, {
      bind: [events[2].eventId],
    });
    const result = await verifyChain(db.sequelize, testCheckpointKeys());
    expect(result).toMatchObject({
      intact: false,
      checked: '3',
      firstBreak: { eventId: events[2].eventId, problem: expect.stringMatching(/was altered/) },
    });
  });

  it('names the entry after one that was deleted', async () => {
    const events = Array.from({ length: 4 }, () => testEvent());
    for (const e of events) await appendEvent(db.sequelize, e);
    await db.sequelize.query('DELETE FROM audit_entries WHERE event_id = $1', { bind: [events[1].eventId] });
    const result = await verifyChain(db.sequelize, testCheckpointKeys());
    expect(result).toMatchObject({
      intact: false,
      firstBreak: { eventId: events[2].eventId, problem: expect.stringMatching(/removed, inserted or altered/) },
    });
  });

  it('names the first entry when its prevHash is not the genesis hash', async () => {
    const first = testEvent();
    await appendEvent(db.sequelize, first);
    await db.sequelize.query(`UPDATE audit_entries SET prev_hash = repeat('1', 64)`);
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({
      intact: false,
      firstBreak: { eventId: first.eventId, problem: expect.stringMatching(/genesis/) },
    });
  });
});
