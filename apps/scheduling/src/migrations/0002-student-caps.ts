import { POLICY_BOUNDS } from '@libs/contracts';
import type { Migration } from '@libs/db';

/** The caps a policy gains (docs/SCHEDULING.md, "Per-student caps"), as JSON to merge into a stored policy. */
const CAP_DEFAULTS = JSON.stringify({
  maxActivePerStudent: POLICY_BOUNDS.maxActivePerStudent.default,
  maxHoldsPerStudent: POLICY_BOUNDS.maxHoldsPerStudent.default,
});

/**
 * Services and appointments stored before the per-student caps get the default caps in their policy, so every
 * stored policy has every field (an appointment's copy is what its rules are read from). A policy that already
 * names a cap keeps it: the defaults go on the left of `||`.
 */
export const m0002StudentCaps: Migration = {
  name: '0002-student-caps',
  async up({ context }) {
    for (const table of ['services', 'appointments']) {
      await context.sequelize.query(`UPDATE ${table} SET policy = $1::jsonb || policy WHERE NOT policy ? 'maxActivePerStudent'`, { bind: [CAP_DEFAULTS] });
    }
  },
  async down({ context }) {
    await context.sequelize.query(`
      UPDATE services SET policy = policy - 'maxActivePerStudent' - 'maxHoldsPerStudent';
      UPDATE appointments SET policy = policy - 'maxActivePerStudent' - 'maxHoldsPerStudent';
    `);
  },
};
