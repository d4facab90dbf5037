import { DISEASE, type DiseaseRecord } from '@libs/contracts';
import type { Statement } from '@libs/db';
import { runPreparedSearch, type SearchDb } from './search-statement';

/** What every search reads of a disease for its keyset position. */
export interface DiseaseKey {
  id: string;
  /** lower(name), the keyset value of the name orders. */
  name_key: string;
}

/** Enough for a list of names. */
export interface DiseaseName extends DiseaseKey {
  name: string;
}

/** Every declared field of a disease (libs/contracts). */
export type DiseaseRow = DiseaseKey & DiseaseRecord;

/**
 * What a search reads of each disease: every field, or, for a caller that shows names alone, only
 * DiseaseName's (the database, pg and the service then read, parse and send no definitions or synonyms).
 * Which diseases match, in which order, does not depend on it.
 */
export type DiseaseFields = 'all' | 'names';
export type DiseaseRowOf<F extends DiseaseFields> = F extends 'names' ? DiseaseName : DiseaseRow;

export type ListOrder = 'id' | 'name-asc' | 'name-desc';

export interface DiseaseListing {
  /** Lower-cased text that a name or synonym must equal; absent for every disease. */
  exactTerm?: string;
  order: ListOrder;
  limit: number;
  /** Keyset position after which the page starts: [lower(name), id]. */
  after?: [string, string];
}

const COLUMNS: Record<DiseaseFields, string> = {
  names: 'd.id::text, d.name, lower(d.name) AS name_key',
  all: ['d.id::text, lower(d.name) AS name_key', ...DISEASE.fields.map((field) => `d.${field.column} AS "${field.property}"`)].join(', '),
};

/**
 * The SELECT of one page of all diseases, or of exact matches, in keyset order
 * (index on (lower(name), id) or the primary key; an exact term through the
 * B-tree on disease_terms.term), as a prepared statement (runPreparedSearch):
 * its name says its shape, the same for every value, so that each shape is
 * parsed once per connection and its text is always the same.
 */
function listingStatement(listing: DiseaseListing, fields: DiseaseFields): Statement & { name: string } {
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const where: string[] = [];
  if (listing.exactTerm !== undefined) {
    where.push(`d.id IN (SELECT disease_pk FROM disease_terms WHERE term = ${param(listing.exactTerm)}::text)`);
  }
  let orderBy = 'd.id ASC';
  if (listing.order === 'id') {
    if (listing.after) where.push(`d.id > ${param(listing.after[1])}::bigint`);
  } else {
    const direction = listing.order === 'name-asc' ? 'ASC' : 'DESC';
    orderBy = `lower(d.name) ${direction}, d.id ${direction}`;
    if (listing.after) {
      const comparison = direction === 'ASC' ? '>' : '<';
      where.push(`(lower(d.name), d.id) ${comparison} (${param(listing.after[0])}::text, ${param(listing.after[1])}::bigint)`);
    }
  }
  const text = `SELECT ${COLUMNS[fields]} FROM diseases d ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY ${orderBy} LIMIT ${param(Math.trunc(listing.limit))}::int`;
  const shape = [fields, listing.order, listing.exactTerm === undefined ? 'all' : 'exact', listing.after ? 'after' : 'first'];
  return { name: `diseases.list.${shape.join('.')}`, text, values };
}

export const listDiseases = <F extends DiseaseFields>(db: SearchDb, listing: DiseaseListing, fields: F): Promise<DiseaseRowOf<F>[]> =>
  runPreparedSearch<DiseaseRowOf<F>>(db, listingStatement(listing, fields));

/** The diseases with these primary keys, in the order given. */
export async function diseasesByPk<F extends DiseaseFields>(db: SearchDb, pks: string[], fields: F): Promise<DiseaseRowOf<F>[]> {
  if (pks.length === 0) return [];
  const rows = await runPreparedSearch<DiseaseRowOf<F>>(db, {
    name: `diseases.by-pk.${fields}`,
    text: `SELECT ${COLUMNS[fields]} FROM diseases d WHERE d.id = ANY($1::bigint[])`,
    values: [pks],
  });
  const byPk = new Map(rows.map((row) => [row.id, row]));
  return pks.flatMap((pk) => byPk.get(pk) ?? []);
}
