import { QueryTypes } from 'sequelize';
import { createLogger } from '@libs/logging';
import { createScratchDatabase, waitFor, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { announceKeyEvent, KeyEventListener, type KeyEvent } from './key-events';

// A real database connection that is killed and reopened: Jest's 5 s default is too tight on a noisy machine.
jest.setTimeout(30_000);

describe('key events between gateway instances (PostgreSQL LISTEN/NOTIFY)', () => {
  let db: ScratchDatabase;
  let listener: KeyEventListener;
  const received: KeyEvent[] = [];
  let connections = 0;
  beforeAll(async () => {
    db = await createScratchDatabase('gateway', migrations);
    listener = new KeyEventListener(
      db.url,
      { onEvent: (event) => received.push(event), onReconnect: () => (connections += 1) },
      createLogger('gateway', 'silent'),
    );
    await listener.start();
  }, 60_000);
  afterAll(async () => {
    await listener?.stop();
    await db?.drop();
  }, 30_000);

  const arrived = (event: KeyEvent) =>
    waitFor(`${JSON.stringify(event)} to arrive`, async () => (received.some((e) => JSON.stringify(e) === JSON.stringify(event)) ? true : undefined));

  it('delivers revocations and role changes announced on another connection', async () => {
    await announceKeyEvent(db.sequelize, { kind: 'key', keyHash: 'ab12' });
    await announceKeyEvent(db.sequelize, { kind: 'user', userId: '00000000-0000-4000-8000-000000000001' });
    await arrived({ kind: 'key', keyHash: 'ab12' });
    await arrived({ kind: 'user', userId: '00000000-0000-4000-8000-000000000001' });
  });

  it('sends nothing for a transaction that rolls back', async () => {
    await db.sequelize
      .transaction(async (transaction) => {
        await announceKeyEvent(db.sequelize, { kind: 'key', keyHash: 'rolled-back' }, transaction);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await announceKeyEvent(db.sequelize, { kind: 'key', keyHash: 'after' });
    await arrived({ kind: 'key', keyHash: 'after' });
    expect(received).not.toContainEqual({ kind: 'key', keyHash: 'rolled-back' });
  });

  it('reconnects after its connection is killed, says so (caches are cleared then), and listens again', async () => {
    const before = connections;
    await db.sequelize.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      { type: QueryTypes.SELECT },
    );
    await waitFor('the listener to reconnect', async () => (connections > before ? true : undefined));
    await announceKeyEvent(db.sequelize, { kind: 'key', keyHash: 'after-reconnect' });
    await arrived({ kind: 'key', keyHash: 'after-reconnect' });
  });
});
