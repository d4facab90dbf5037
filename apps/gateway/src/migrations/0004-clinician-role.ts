import type { Migration } from '@libs/db';

/** The clinician role (scheduling): the users table's role check gains it. */
export const m0004ClinicianRole: Migration = {
  name: '0004-clinician-role',
  async up({ context }) {
    await context.sequelize.query(`
      ALTER TABLE users DROP CONSTRAINT users_role_check;
      ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('reader', 'student', 'bursar', 'clinician', 'admin'));
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`
      ALTER TABLE users DROP CONSTRAINT users_role_check;
      ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('reader', 'student', 'bursar', 'admin'));
    `);
  },
};
