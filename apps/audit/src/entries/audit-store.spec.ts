import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@libs/contracts';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { appendEvent, listEntries } from './audit-store';
import { entryHash, GENESIS_HASH } from './entry-hash';

const event = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  eventId: randomUUID(),
  occurredAt: new Date().toISOString(),
  action: 'transaction.created',
  entityType: 'transaction',
  entityIds: [randomUUID()],
  actor: { userId: 'u1', role: 'bursar' },
  requestId: 'req-1',
  before: null,
  after: { amount: '100', nested: { b: 1, a: [1, 2] } },
  ...overrides,
});

describe('appendEvent (PostgreSQL)', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('audit', migrations);
  });
  afterAll(() => db?.drop());

  it('stores an event once, however often it is delivered', async () => {
    const first = event();
    expect(await appendEvent(db.sequelize, first)).toBe('stored');
    expect(await appendEvent(db.sequelize, first)).toBe('duplicate');
    const stored = await listEntries(db.sequelize, { entityType: '', entityId: first.entityIds[0], action: '', limit: 10 });
    expect(stored).toHaveLength(1);
  });

  it('chains each entry to the one before it', async () => {
    const events = [event(), event(), event()];
    for (const e of events) await appendEvent(db.sequelize, e);
    const entries = (await listEntries(db.sequelize, { entityType: '', entityId: '', action: '', limit: 100 })).reverse();
    expect(entries[0].prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < entries.length; i += 1) expect(entries[i].prevHash).toBe(entries[i - 1].hash);
    const last = entries[entries.length - 1];
    expect(last.hash).toBe(entryHash(last.prevHash, events[2]));
  });

  it('keeps the chain linear when events arrive concurrently', async () => {
    await Promise.all(Array.from({ length: 40 }, () => appendEvent(db.sequelize, event())));
    const entries = (await listEntries(db.sequelize, { entityType: '', entityId: '', action: '', limit: 500 })).reverse();
    const prevHashes = entries.map((e) => e.prevHash);
    expect(new Set(prevHashes).size).toBe(prevHashes.length);
  });
});
