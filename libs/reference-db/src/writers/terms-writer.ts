import type { Sequelize, Transaction } from 'sequelize';
import type { ConceptTerm } from '../catalogue-terms';
import type { TermIndex } from '../search/term-index';

/**
 * Replaces the search terms of these concepts in one vocabulary's terms
 * table: every writer of a concept (or of what its terms come from) calls it,
 * in the same transaction, so the terms never lag the rows.
 */
export async function replaceTerms(
  sequelize: Sequelize,
  index: TermIndex,
  terms: readonly { pk: string; terms: readonly ConceptTerm[] }[],
  transaction: Transaction,
): Promise<void> {
  if (terms.length === 0) return;
  const rows = terms.flatMap(({ pk, terms: own }) => own.map(({ term, isName }) => ({ pk, term, is_name: isName })));
  await sequelize.query(`DELETE FROM ${index.terms} WHERE ${index.owner} = ANY($1::bigint[])`, { bind: [terms.map(({ pk }) => pk)], transaction });
  await sequelize.query(
    `INSERT INTO ${index.terms} (${index.owner}, term, is_name)
     SELECT pk, term, is_name FROM jsonb_to_recordset($1::jsonb) AS r(pk bigint, term text, is_name boolean)`,
    { bind: [JSON.stringify(rows)], transaction },
  );
}
