import type { Migration } from '@libs/db';

/**
 * Roles become rows that users.role references, in place of a CHECK that listed them: a new role is then a row
 * that `knownRoles` adds (./known-roles.ts), not a migration that rewrites the check. The five roles of the time
 * are listed here because a migration must mean the same on every run.
 */
export const m0005RolesTable: Migration = {
  name: '0005-roles-table',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE TABLE roles (name text PRIMARY KEY);
      INSERT INTO roles (name) VALUES ('reader'), ('student'), ('bursar'), ('clinician'), ('admin');
      ALTER TABLE users DROP CONSTRAINT users_role_check;
      ALTER TABLE users ADD CONSTRAINT users_role_fkey FOREIGN KEY (role) REFERENCES roles (name);
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`
      ALTER TABLE users DROP CONSTRAINT users_role_fkey;
      ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('reader', 'student', 'bursar', 'clinician', 'admin'));
      DROP TABLE roles;
    `);
  },
};
