import type { Migration } from '@libs/db';

/**
 * Code lookup (docs/REFERENCE.md, "Code lookup") reads each code from an
 * index: a disease's alternative ids (GIN on the array), a condition's DOID, a
 * lab test's LOINC code, and the Drugs@FDA products of an application, whose
 * source ids start `fda:<ApplNo>-` (text_pattern_ops serves the prefix in any
 * collation). Ids, DrugBank ids and ATC codes had theirs already.
 */
export const m0007CodeLookup: Migration = {
  name: '0007-code-lookup',
  async up({ context }) {
    await context.sequelize.query(`
      CREATE INDEX diseases_alternative_ids ON diseases USING gin (alternative_ids);
      CREATE INDEX conditions_doid ON conditions (doid);
      CREATE INDEX lab_tests_loinc ON lab_tests (loinc);
      CREATE INDEX dosages_source_prefix ON dosages (source_id text_pattern_ops);
    `);
  },
  async down({ context }) {
    await context.sequelize.query(
      'DROP INDEX diseases_alternative_ids; DROP INDEX conditions_doid; DROP INDEX lab_tests_loinc; DROP INDEX dosages_source_prefix;',
    );
  },
};
