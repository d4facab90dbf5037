import { REMINDER_LIMITS } from '@libs/contracts';
import type { Migration } from '@libs/db';

/**
 * Services and appointments stored before reminders get the default ones in their policy, as the per-student caps
 * did (0002): every stored policy has every field, and an appointment's copy is what its reminders are read from.
 */
export const m0003Reminders: Migration = {
  name: '0003-reminders',
  async up({ context }) {
    const defaults = JSON.stringify({ reminders: REMINDER_LIMITS.default });
    for (const table of ['services', 'appointments']) {
      await context.sequelize.query(`UPDATE ${table} SET policy = $1::jsonb || policy WHERE NOT policy ? 'reminders'`, { bind: [defaults] });
    }
  },
  async down({ context }) {
    await context.sequelize.query(`
      UPDATE services SET policy = policy - 'reminders';
      UPDATE appointments SET policy = policy - 'reminders';
    `);
  },
};
