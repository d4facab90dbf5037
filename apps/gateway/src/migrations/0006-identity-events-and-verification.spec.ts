import { QueryTypes } from 'sequelize';
import { auditEventSchema, userJson } from '@libs/contracts';
import { runMigrations } from '@libs/db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '.';
import { m0006IdentityEventsAndVerification } from './0006-identity-events-and-verification';

jest.setTimeout(30_000);

describe('migration 0006: identity events and proved addresses, on a database with accounts', () => {
  let db: ScratchDatabase;
  const before = migrations.slice(0, migrations.indexOf(m0006IdentityEventsAndVerification));

  beforeAll(async () => {
    db = await createScratchDatabase('gateway', before);
    await db.sequelize.query(`
      INSERT INTO users (email, password_hash, role) VALUES
        ('reader@example.org', 'scrypt$14$8$5$c2FsdA$a2V5', 'reader'),
        ('bursar@example.org', 'scrypt$14$8$5$c2FsdA$a2V5', 'bursar');
      INSERT INTO users (email, role) VALUES ('demo-reader@example.invalid', 'reader');`);
    await runMigrations(db.sequelize, db.url, migrations, () => undefined);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('counts as proved the accounts an admin gave a role, and the demo users; not the readers who registered', async () => {
    const users = await db.sequelize.query<{ email: string; email_verified: boolean }>('SELECT email, email_verified FROM users ORDER BY email', {
      type: QueryTypes.SELECT,
    });
    expect(users).toEqual([
      { email: 'bursar@example.org', email_verified: true },
      { email: 'demo-reader@example.invalid', email_verified: true },
      { email: 'reader@example.org', email_verified: false },
    ]);
  });

  it('writes one user.registered per account, a valid event of the current shape, with no hash in it', async () => {
    const rows = await db.sequelize.query<{ routing_key: string; payload: unknown }>('SELECT routing_key, payload FROM outbox ORDER BY id', {
      type: QueryTypes.SELECT,
    });
    expect(rows.map((row) => row.routing_key)).toEqual(['user.registered', 'user.registered', 'user.registered']);
    for (const { payload } of rows) {
      const event = auditEventSchema.parse(payload);
      expect(userJson.parse(event.after)).toEqual({ id: event.entityIds[0], email: expect.any(String), role: expect.any(String), emailVerified: expect.any(Boolean), createdAt: expect.any(String) });
      expect(event.subjects).toEqual(event.entityIds);
      expect(JSON.stringify(payload)).not.toContain('scrypt');
    }
  });
});
