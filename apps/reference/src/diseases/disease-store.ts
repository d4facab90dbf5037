import { QueryTypes, type Sequelize } from 'sequelize';

export interface DiseaseRow {
  id: string;
  disease_id: string;
  name: string;
  alternative_ids: string[];
  definition: string;
  parent_ids: string[];
  tree_numbers: string[];
  parent_tree_numbers: string[];
  synonyms: string[];
  slim_mappings: string[];
  /** Keyset values of the row in the page's order, as text. */
  sort_key: string | null;
}

export type DiseaseOrder = 'relevance' | 'name-asc' | 'name-desc' | 'id';

export interface DiseaseSearch {
  /** Lower-cased search text; empty for every disease. */
  term: string;
  exact: boolean;
  order: DiseaseOrder;
  limit: number;
  /** Keyset position after which the page starts: [sortKey, id]. */
  after?: [string | null, string];
}

const COLUMNS = `d.id::text, d.disease_id, d.name, d.alternative_ids, d.definition, d.parent_ids,
  d.tree_numbers, d.parent_tree_numbers, d.synonyms, d.slim_mappings`;

/**
 * One page of diseases in keyset order. Fuzzy candidates come from the trigram
 * index on disease_terms (`%` uses the GIN index); relevance is the best
 * similarity over a disease's name and synonyms, rounded so it compares exactly.
 */
export async function searchDiseases(sequelize: Sequelize, search: DiseaseSearch): Promise<DiseaseRow[]> {
  const bind: unknown[] = [];
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  const fuzzy = search.term !== '' && !search.exact;
  const after = search.after;
  let source: string;
  let sortKey: string;
  const where: string[] = [];

  if (fuzzy && search.order === 'relevance') {
    const term = param(search.term);
    source = `(SELECT t.disease_pk, round(max(similarity(t.term, ${term}))::numeric, 6) AS score
                 FROM disease_terms t WHERE t.term % ${term} GROUP BY t.disease_pk) m
              JOIN diseases d ON d.id = m.disease_pk`;
    sortKey = 'm.score';
  } else {
    source = 'diseases d';
    sortKey = search.order === 'id' || search.order === 'relevance' ? 'NULL' : 'lower(d.name)';
    if (search.term !== '') {
      const operator = search.exact ? '=' : '%';
      where.push(`d.id IN (SELECT disease_pk FROM disease_terms WHERE term ${operator} ${param(search.term)})`);
    }
  }

  let orderBy: string;
  switch (search.order) {
    case 'relevance':
      orderBy = fuzzy ? 'm.score DESC, d.id ASC' : 'd.id ASC';
      if (after && fuzzy) {
        const score = param(after[0]);
        const id = param(after[1]);
        where.push(`(m.score < ${score}::numeric OR (m.score = ${score}::numeric AND d.id > ${id}::bigint))`);
      } else if (after) {
        where.push(`d.id > ${param(after[1])}::bigint`);
      }
      break;
    case 'name-asc':
    case 'name-desc': {
      const direction = search.order === 'name-asc' ? 'ASC' : 'DESC';
      orderBy = `lower(d.name) ${direction}, d.id ${direction}`;
      if (after) {
        where.push(
          `(lower(d.name), d.id) ${direction === 'ASC' ? '>' : '<'} (${param(after[0])}, ${param(after[1])}::bigint)`,
        );
      }
      break;
    }
    case 'id':
      orderBy = 'd.id ASC';
      if (after) where.push(`d.id > ${param(after[1])}::bigint`);
      break;
  }

  const sql = `SELECT ${COLUMNS}, ${sortKey}::text AS sort_key FROM ${source}
               ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
               ORDER BY ${orderBy} LIMIT ${param(search.limit)}`;
  return sequelize.query<DiseaseRow>(sql, { bind, type: QueryTypes.SELECT });
}
