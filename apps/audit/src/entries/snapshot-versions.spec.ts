import { QueryTypes } from 'sequelize';
import { AUDITED_ENTITIES, type AuditedEntityType, type AuditEvent } from '@libs/contracts';
import { CursorCodec } from '@libs/cursor';
import type { CallContext } from '@libs/grpc';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { appendEvents } from './audit-store';
import { verifyChain } from './chain-verify';
import { entryHash, GENESIS_HASH } from './entry-hash';
import { entryHandlers } from './entry-handlers';
import { testCheckpointKeys, testEvent } from './test-events';

const ID = {
  transaction: '5b1e3c1a-7f0e-4b8e-9d6f-0a1b2c3d4e5f',
  category: '00000000-0000-4000-8000-00000000c001',
  account: '00000000-0000-4000-8000-00000000a001',
  student: '2f8d6c4b-1a3e-4d5f-8b7a-9c0d1e2f3a4b',
  payment: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
  registration: '3c2b1a09-8f7e-4d6c-8b5a-493827160504',
  line: '6e5d4c3b-2a19-4f8e-8d7c-6b5a49382716',
};
const AT = '2026-09-01T08:00:00.123Z';
const LATER = '2026-09-02T09:30:00.456Z';

/** What finance wrote before schemaVersion existed (version 1): its gRPC messages as JSON. */
const transactionV1 = {
  id: ID.transaction,
  studentId: '',
  date: '2026-09-01',
  categoryId: ID.category,
  payee: 'Registrar',
  amount: '-125000',
  notes: '',
  accountId: ID.account,
  madeBy: 'bursar-1',
  createdAt: AT,
  updatedAt: AT,
  version: 1,
  categoryName: 'Tuition',
  accountName: 'Main',
};
const paymentV1 = {
  id: ID.payment,
  studentId: ID.student,
  userId: 'student-1',
  amount: '50000',
  description: 'Bank transfer',
  date: '2026-09-01',
  status: 'pending',
  outcome: '',
  note: '',
  processedBy: '',
  processedAt: '',
  resolvedBy: '',
  resolvedAt: '',
  createdAt: AT,
  updatedAt: AT,
};

const version1: [AuditedEntityType, string, unknown, unknown][] = [
  ['transaction', 'transaction.created', null, transactionV1],
  ['transaction', 'transaction.updated', transactionV1, { ...transactionV1, studentId: ID.student, amount: '-99', version: 2 }],
  [
    'transaction',
    'transaction.bulk_created',
    null,
    [{ id: ID.transaction, studentId: null, date: '2026-09-01', categoryId: ID.category, payee: 'Bookshop', amount: '-4500', notes: '', accountId: ID.account, madeBy: 'bursar-1' }],
  ],
  ['transaction', 'transaction.bulk_deleted', [transactionV1], null],
  [
    'payment',
    'payment.processed',
    paymentV1,
    { ...paymentV1, status: 'processed', outcome: 'accepted', processedBy: 'bursar-1', processedAt: LATER, updatedAt: LATER },
  ],
  ['account', 'account.created', null, { id: ID.account, createdAt: AT, updatedAt: AT, version: 1, name: 'Main', userId: '' }],
  ['category', 'category.created', null, { id: ID.category, createdAt: AT, updatedAt: AT, version: 1, name: 'Tuition' }],
  ['registration_number', 'registration_number.created', null, { id: ID.registration, createdAt: AT, updatedAt: AT, version: 0, number: 'R-1' }],
  [
    'student',
    'student.created',
    null,
    { id: ID.student, createdAt: AT, updatedAt: AT, version: 1, registrationNumberId: ID.registration, userId: 'student-1', currentProgramLevelId: '' },
  ],
  [
    'financial_statement',
    'statement.line_added',
    null,
    { id: ID.line, studentId: ID.student, semesterId: '', date: '2026-09-01', description: 'Fees', debit: '125000', credit: '0', balance: '-125000', createdAt: AT, updatedAt: AT },
  ],
];

/** The same records as version 2 (the API's shape) writes them. */
const transactionV2 = {
  id: ID.transaction,
  studentId: null,
  date: '2026-09-01',
  categoryId: ID.category,
  category: { id: ID.category, name: 'Tuition' },
  payee: 'Registrar',
  amount: -125000,
  notes: '',
  accountId: ID.account,
  account: { id: ID.account, name: 'Main' },
  madeBy: 'bursar-1',
  createdAt: AT,
  updatedAt: AT,
  version: 1,
  // Fields added since version 1 (snapshot-versions.ts, ADDED_SINCE): null for a record stored before them.
  reversalOf: null,
  reversedBy: null,
};
const paymentV2 = {
  ...paymentV1,
  amount: 50000,
  outcome: null,
  processedBy: null,
  processedAt: null,
  resolvedBy: null,
  resolvedAt: null,
  reversedBy: null,
  reversedAt: null,
  reversalReason: null,
  // Added with attachments: no files for a payment stored before them.
  files: [],
};

const expected: [unknown, unknown][] = [
  [null, transactionV2],
  [transactionV2, { ...transactionV2, studentId: ID.student, amount: -99, version: 2 }],
  [
    null,
    [{ id: ID.transaction, studentId: null, date: '2026-09-01', categoryId: ID.category, payee: 'Bookshop', amount: -4500, notes: '', accountId: ID.account, madeBy: 'bursar-1' }],
  ],
  [[transactionV2], null],
  [paymentV2, { ...paymentV2, status: 'processed', outcome: 'accepted', processedBy: 'bursar-1', processedAt: LATER, updatedAt: LATER }],
  [null, { id: ID.account, name: 'Main', userId: null, createdAt: AT, updatedAt: AT, version: 1 }],
  [null, { id: ID.category, name: 'Tuition', createdAt: AT, updatedAt: AT, version: 1 }],
  [null, { id: ID.registration, number: 'R-1', createdAt: AT, updatedAt: AT }],
  [
    null,
    { id: ID.student, registrationNumberId: ID.registration, userId: 'student-1', currentProgramLevelId: null, createdAt: AT, updatedAt: AT, version: 1 },
  ],
  [
    null,
    { id: ID.line, studentId: ID.student, semesterId: null, date: '2026-09-01', description: 'Fees', debit: 125000, credit: 0, balance: -125000, createdAt: AT, updatedAt: AT, reversalOf: null },
  ],
];

describe('entries stored before schemaVersion (version 1), read today (PostgreSQL)', () => {
  let db: ScratchDatabase;
  let handlers: ReturnType<typeof entryHandlers>;
  const events: AuditEvent[] = version1.map(([entityType, action, before, after], index) =>
    testEvent({ entityType, action, before, after, occurredAt: `2026-09-01T08:00:0${index}.000Z` }),
  );
  /** The same changes as finance records them now. */
  const current: AuditEvent[] = expected.map(([before, after], index) =>
    testEvent({ entityType: version1[index][0], action: version1[index][1], before, after, schemaVersion: 2 }),
  );

  beforeAll(async () => {
    db = await createScratchDatabase('audit', migrations);
    handlers = entryHandlers(db.sequelize, new CursorCodec('a-test-secret-of-some-length'), testCheckpointKeys());
    await appendEvents(db.sequelize, [...events, ...current]);
  });
  afterAll(() => db?.drop());

  const asAdmin: CallContext = { requestId: 'spec', actor: { userId: 'admin-1', role: 'admin' } };
  const listed = async () => (await handlers.listEntries({ entityType: '', entityId: '', action: '', limit: 500, actorId: '', occurredFrom: '', occurredBefore: '', cursor: '' }, asAdmin)).entries.reverse();

  it('shows them in the shape of the API, like entries written now', async () => {
    const entries = await listed();
    const shown = entries.map((entry) => [JSON.parse(entry.beforeJson), JSON.parse(entry.afterJson)]);
    expect(shown).toEqual([...expected, ...expected]);
  });

  it('shows each complete record as its entity schema describes it', async () => {
    const entries = await listed();
    entries.forEach((entry) => {
      const schema = AUDITED_ENTITIES[entry.entityType as AuditedEntityType].schema;
      for (const snapshot of [JSON.parse(entry.beforeJson), JSON.parse(entry.afterJson)]) {
        // A version-1 bulk create never recorded names, timestamps or version: those items stay partial.
        if (snapshot === null || entry.action === 'transaction.bulk_created') continue;
        for (const record of [snapshot].flat()) expect(schema.strict().parse(record)).toEqual(record);
      }
    });
  });

  it('keeps what was stored and its hash, so the chain still verifies', async () => {
    const stored = await db.sequelize.query<{ after: unknown; hash: string; prev_hash: string; schema_version: number | null }>(
      'SELECT after, hash, prev_hash, schema_version FROM audit_entries ORDER BY sequence',
      { type: QueryTypes.SELECT },
    );
    expect(stored.slice(0, events.length).map((row) => row.after)).toEqual(events.map((event) => event.after));
    expect(stored.map((row) => row.schema_version)).toEqual([...events.map(() => null), ...current.map(() => 2)]);
    // The hash of a version-1 entry is the one computed before schemaVersion existed: over the event as finance sent it.
    expect(stored[0].hash).toBe(entryHash(GENESIS_HASH, events[0]));
    expect(stored[events.length].hash).toBe(entryHash(stored[events.length - 1].hash, current[0]));
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({ intact: true, checked: String(events.length + current.length) });
  });

  it('serves a version-2 entry so that a client can recompute its hash, and says which entries are converted', async () => {
    const entries = await listed();
    expect(entries.map((entry) => entry.schemaVersion)).toEqual([...events.map(() => 0), ...current.map(() => 2)]);
    for (const entry of entries.slice(events.length)) {
      const served = {
        eventId: entry.eventId,
        occurredAt: entry.occurredAt,
        action: entry.action,
        entityType: entry.entityType,
        entityIds: entry.entityIds,
        actor: entry.actor,
        requestId: entry.requestId,
        schemaVersion: entry.schemaVersion,
        before: JSON.parse(entry.beforeJson),
        after: JSON.parse(entry.afterJson),
      } as AuditEvent;
      expect(entryHash(entry.prevHash, served)).toBe(entry.hash);
    }
  });

  it('notices a version-2 entry whose schemaVersion was removed in SQL', async () => {
    await db.sequelize.query('UPDATE audit_entries SET schema_version = NULL WHERE event_id = $1', { bind: [current[0].eventId] });
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({
      intact: false,
      firstBreak: { eventId: current[0].eventId, problem: expect.stringMatching(/altered/) },
    });
  });
});
