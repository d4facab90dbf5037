import { QueryTypes } from 'sequelize';
import { SUBJECTS_VERSION, type AuditEvent } from '@libs/contracts';
import { CursorCodec } from '@libs/cursor';
import type { CallContext } from '@libs/grpc';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { appendEvents } from './audit-store';
import { verifyChain } from './chain-verify';
import { entryHash, GENESIS_HASH } from './entry-hash';
import { entryHandlers } from './entry-handlers';
import { testCheckpointKeys, testEvent } from './test-events';

/** Events of the versions before subjects existed, stored first, then events that carry them: one chain. */
describe('a chain of entries from before and after subjects (PostgreSQL)', () => {
  let db: ScratchDatabase;
  let handlers: ReturnType<typeof entryHandlers>;
  const older: AuditEvent[] = [testEvent(), testEvent({ schemaVersion: SUBJECTS_VERSION - 1 })];
  const newer: AuditEvent[] = [
    testEvent({ schemaVersion: SUBJECTS_VERSION, subjects: ['clinician-1', 'student-1'] }),
    testEvent({ schemaVersion: SUBJECTS_VERSION, subjects: [] }),
  ];

  beforeAll(async () => {
    db = await createScratchDatabase('audit', migrations);
    handlers = entryHandlers(db.sequelize, new CursorCodec('a-test-secret-of-some-length'), testCheckpointKeys());
    await appendEvents(db.sequelize, older);
    await appendEvents(db.sequelize, newer);
  });
  afterAll(() => db?.drop());

  const asAdmin: CallContext = { requestId: 'spec', actor: { userId: 'admin-1', role: 'admin' } };
  const listed = async () =>
    (await handlers.listEntries({ entityType: '', entityId: '', action: '', limit: 500, actorId: '', occurredFrom: '', occurredBefore: '', cursor: '' }, asAdmin)).entries.reverse();

  it('hashes the older entries over what they were sent, without subjects, and the whole chain verifies', async () => {
    const stored = await db.sequelize.query<{ hash: string; subjects: string[] | null }>('SELECT hash, subjects FROM audit_entries ORDER BY sequence', {
      type: QueryTypes.SELECT,
    });
    expect(stored.map((row) => row.subjects)).toEqual([null, null, ['clinician-1', 'student-1'], []]);
    expect(stored[0].hash).toBe(entryHash(GENESIS_HASH, older[0]));
    expect(stored[1].hash).toBe(entryHash(stored[0].hash, older[1]));
    expect(stored[2].hash).toBe(entryHash(stored[1].hash, newer[0]));
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toEqual({ intact: true, checked: '4', lastHash: stored[3].hash, checkpointsChecked: '0' });
  });

  it('serves each newer entry with its subjects, so that a client recomputes its hash from what it is served', async () => {
    const entries = (await listed()).slice(older.length);
    expect(entries.map((entry) => entry.subjects)).toEqual([['clinician-1', 'student-1'], []]);
    for (const entry of entries) {
      const { eventId, occurredAt, action, entityType, entityIds, actor, requestId, schemaVersion, subjects } = entry;
      const served = { eventId, occurredAt, action, entityType, entityIds, actor, requestId, schemaVersion, subjects } as AuditEvent;
      expect(entryHash(entry.prevHash, { ...served, before: JSON.parse(entry.beforeJson), after: JSON.parse(entry.afterJson) })).toBe(entry.hash);
    }
  });

  it.each([
    ['a subject removed from a newer entry', 2, "array_remove(subjects, 'student-1')"],
    ['the empty subjects of a newer entry removed', 3, 'NULL'],
    ['subjects given to an older entry', 1, "'{}'"],
  ])('notices %s in SQL', async (_what, index, value) => {
    const eventId = [...older, ...newer][index].eventId;
    await db.sequelize.query(`UPDATE audit_entries SET subjects = ${value} WHERE event_id = $1`, { bind: [eventId] });
    try {
      expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({ intact: false, firstBreak: { eventId, problem: expect.stringMatching(/altered/) } });
    } finally {
      const original = [...older, ...newer][index].subjects ?? null;
      await db.sequelize.query('UPDATE audit_entries SET subjects = $2 WHERE event_id = $1', { bind: [eventId, original] });
    }
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({ intact: true });
  });
});
