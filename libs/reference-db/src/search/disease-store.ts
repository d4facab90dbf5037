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
  /** lower(name), the keyset value of the name orders. */
  name_key: string;
}

export type ListOrder = 'id' | 'name-asc' | 'name-desc';

export interface DiseaseListing {
  /** Lower-cased text that a name or synonym must equal; absent for every disease. */
  exactTerm?: string;
  order: ListOrder;
  limit: number;
  /** Keyset position after which the page starts: [lower(name), id]. */
  after?: [string, string];
}

const COLUMNS = `d.id::text, d.disease_id, d.name, d.alternative_ids, d.definition, d.parent_ids,
  d.tree_numbers, d.parent_tree_numbers, d.synonyms, d.slim_mappings, lower(d.name) AS name_key`;

/** One page of all diseases, or of exact matches, in keyset order (index on (lower(name), id) or the primary key). */
export async function listDiseases(sequelize: Sequelize, listing: DiseaseListing): Promise<DiseaseRow[]> {
  const bind: unknown[] = [];
  const param = (value: unknown) => {
    bind.push(value);
    return `$${bind.length}`;
  };
  const where: string[] = [];
  if (listing.exactTerm !== undefined) {
    where.push(`d.id IN (SELECT disease_pk FROM disease_terms WHERE term = ${param(listing.exactTerm)})`);
  }
  let orderBy = 'd.id ASC';
  if (listing.order === 'id') {
    if (listing.after) where.push(`d.id > ${param(listing.after[1])}::bigint`);
  } else {
    const direction = listing.order === 'name-asc' ? 'ASC' : 'DESC';
    orderBy = `lower(d.name) ${direction}, d.id ${direction}`;
    if (listing.after) {
      const comparison = direction === 'ASC' ? '>' : '<';
      where.push(`(lower(d.name), d.id) ${comparison} (${param(listing.after[0])}, ${param(listing.after[1])}::bigint)`);
    }
  }
  const sql = `SELECT ${COLUMNS} FROM diseases d ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
               ORDER BY ${orderBy} LIMIT ${param(listing.limit)}`;
  return sequelize.query<DiseaseRow>(sql, { bind, type: QueryTypes.SELECT });
}

/** The diseases with these primary keys, in the order given. */
export async function diseasesByPk(sequelize: Sequelize, pks: string[]): Promise<DiseaseRow[]> {
  if (pks.length === 0) return [];
  const rows = await sequelize.query<DiseaseRow>(`SELECT ${COLUMNS} FROM diseases d WHERE d.id = ANY($1::bigint[])`, {
    bind: [pks],
    type: QueryTypes.SELECT,
  });
  const byPk = new Map(rows.map((row) => [row.id, row]));
  return pks.flatMap((pk) => byPk.get(pk) ?? []);
}
