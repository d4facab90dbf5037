import { ROLES } from '@libs/contracts';
import { runMigrations } from '@libs/db';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '.';
import { knownRoles } from './known-roles';

jest.setTimeout(30_000);

describe('roles in the gateway database', () => {
  let db: ScratchDatabase;
  const insertUser = (email: string, role: string) =>
    db.sequelize.query('INSERT INTO users (email, role) VALUES (:email, :role)', { replacements: { email, role } });

  beforeAll(async () => {
    db = await createScratchDatabase('gateway', migrations);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('stores a user of every role the code knows, and refuses any other', async () => {
    for (const role of ROLES) await insertUser(`${role}@example.org`, role);
    await expect(insertUser('nobody@example.org', 'superuser')).rejects.toThrow(/users_role_fkey/);
  });

  it('takes a role added to ROLES on the next start, without a migration of its own, once', async () => {
    await expect(insertUser('nurse@example.org', 'nurse')).rejects.toThrow(/users_role_fkey/);
    const grown = [...migrations.slice(0, -1), knownRoles([...ROLES, 'nurse'])];
    const run = () => runMigrations(db.sequelize, db.url, grown, () => undefined);
    expect(await run()).toEqual([`roles:${[...ROLES, 'nurse'].join(',')}`]);
    expect(await run()).toEqual([]);
    await insertUser('nurse@example.org', 'nurse');
  });
});
