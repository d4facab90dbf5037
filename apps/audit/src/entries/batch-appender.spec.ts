import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { BatchAppender } from './batch-appender';
import { verifyChain } from './chain-verify';
import { testCheckpointKeys, testEvent } from './test-events';

describe('BatchAppender (PostgreSQL)', () => {
  let db: ScratchDatabase;
  beforeEach(async () => {
    db = await createScratchDatabase('audit', migrations);
  });
  afterEach(() => db?.drop());

  const count = async () =>
    (await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_entries', { type: QueryTypes.SELECT }))[0].n;

  it('stores events that arrive together, each once, in a linear chain', async () => {
    const appender = new BatchAppender(db.sequelize, 50);
    const events = Array.from({ length: 300 }, () => testEvent());
    const outcomes = await Promise.all([...events, events[7]].map((e) => appender.append(e)));
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(300);
    expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(1);
    expect(await count()).toBe(300);
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({ intact: true, checked: '300' });
  });

  it('refuses only the event the database cannot hold; the rest of its batch is stored', async () => {
    const appender = new BatchAppender(db.sequelize);
    const good = [testEvent(), testEvent()];
    const bad = testEvent({ after: { note: 'nul \u0000 inside' } });
    const results = await Promise.allSettled([good[0], bad, good[1]].map((e) => appender.append(e)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await count()).toBe(2);
    expect(await verifyChain(db.sequelize, testCheckpointKeys())).toMatchObject({ intact: true, checked: '2' });
  });
});
