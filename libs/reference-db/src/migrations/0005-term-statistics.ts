import type { Migration } from '@libs/db';

/**
 * The planner estimates the trigram operators (`%`, `<%`) by running them on
 * the column's most common values and histogram: with the default statistics
 * target, a hundred or more similarity computations against the query each
 * time a fuzzy search is planned, a large share of a fuzzy search's database
 * time (the bench's `fuzzy search`; docs/PERFORMANCE.md). Under ten
 * histogram entries the estimate is a fixed selectivity instead, computed at
 * once. No plan depends on it: every search statement
 * runs with sequential scans off and takes its candidates in a materialized
 * CTE (docs/SEARCH.md), and an exact match still finds one row per term.
 */
export const m0005TermStatistics: Migration = {
  name: '0005-term-statistics',
  async up({ context }) {
    await context.sequelize.query('ALTER TABLE disease_terms ALTER COLUMN term SET STATISTICS 5; ANALYZE disease_terms');
  },
  async down({ context }) {
    await context.sequelize.query('ALTER TABLE disease_terms ALTER COLUMN term SET STATISTICS -1; ANALYZE disease_terms');
  },
};
