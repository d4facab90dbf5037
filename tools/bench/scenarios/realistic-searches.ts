import { Client } from 'pg';
import type { TermIndex } from '@libs/reference-db';
import { realisticQueries, type RealisticQuery } from '../../search-quality/realistic-queries';
import type { BenchContext } from '../context';

/**
 * The realistic fuzzy queries of a vocabulary (docs/SEARCH.md, "Quality"): seeded misspellings of the names and
 * synonyms in the run's reference database, each with the concept it was typed for.
 */
export async function realisticSearches(context: BenchContext, index: TermIndex, count: number): Promise<RealisticQuery[]> {
  const client = new Client({ connectionString: context.databaseUrl('reference') });
  await client.connect();
  try {
    // In term order, so that the seeded sample is the same on every run of the same data.
    const { rows } = await client.query<{ pk: string; term: string; is_name: boolean }>(
      `SELECT t.${index.owner}::text AS pk, t.term, t.is_name FROM ${index.terms} t ORDER BY t.term, t.${index.owner}`,
    );
    return realisticQueries(
      rows.map((row) => ({ pk: row.pk, term: row.term, isName: row.is_name })),
      count,
      context.random,
    );
  } finally {
    await client.end();
  }
}
