import { QueryTypes, type Sequelize } from 'sequelize';
import { isTextTuple, keysetPage, pageSize, type CursorCodec } from '@libs/cursor';
import { REFERENCE_LIMITS, type catalogueV1 } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import { notFound } from '@libs/validation';
import { catalogueId, normaliseTerms } from './request-checks';
import { containsPattern, SqlParams } from './sql-params';

/** Dosages per page: `b` in the API. */
export const DOSAGE_BATCH = REFERENCE_LIMITS.dosageBatch;

export interface DosageRow {
  id: string;
  form: string;
  physical_form: string;
  admin_method: string;
  strength: string;
}

interface DrugDosageRow extends DosageRow {
  drug_id: string;
  drug_name: string;
  sort_name: string;
}

/** Keyset position: [lower(drug name), drug id, dosage id]. */
type DosageKey = [string, string, string];

export const DOSAGE_COLUMNS = 's.id::text AS id, s.form, s.physical_form, s.admin_method, s.strength';

export const toDosage = (row: DosageRow): catalogueV1.Dosage => ({
  id: row.id,
  form: row.form,
  physicalForm: row.physical_form,
  adminMethod: row.admin_method,
  strength: row.strength,
});

/** Consecutive rows of one drug become one group; the page is in drug order already. */
function groupByDrug(rows: DrugDosageRow[]): catalogueV1.DrugDosages[] {
  const groups: catalogueV1.DrugDosages[] = [];
  for (const row of rows) {
    const last = groups[groups.length - 1];
    if (last?.drugId === row.drug_id) last.dosages.push(toDosage(row));
    else groups.push({ drugId: row.drug_id, drugName: row.drug_name, dosages: [toDosage(row)] });
  }
  return groups;
}

/**
 * Drugs in name order, each with its dosages in id order: those whose name contains `name`, or every drug
 * without it. The keyset splits in two: drugs at or after the cursor's drug, and within that drug only dosages
 * after the cursor's, so the plan walks the drugs' name index and the dosages' (drug, id) index instead of
 * joining everything and sorting.
 */
function selectDosages(sequelize: Sequelize, name: string | undefined, after: DosageKey | undefined, limit: number) {
  const params = new SqlParams();
  const where = name === undefined ? ['TRUE'] : [`d.name ILIKE ${params.add(containsPattern(name))}`];
  let dosageAfter = 'TRUE';
  if (after) {
    const drugId = params.add(after[1]);
    where.push(`(lower(d.name), d.id) >= (${params.add(after[0])}, ${drugId}::bigint)`);
    dosageAfter = `(d.id <> ${drugId}::bigint OR x.id > ${params.add(after[2])}::bigint)`;
  }
  return sequelize.query<DrugDosageRow>(
    `SELECT ${DOSAGE_COLUMNS}, d.id::text AS drug_id, d.name AS drug_name, lower(d.name) AS sort_name
       FROM drugs d
       JOIN LATERAL (SELECT x.* FROM dosages x WHERE x.drug_pk = d.id AND ${dosageAfter}) s ON TRUE
      WHERE ${where.join(' AND ')}
      ORDER BY lower(d.name), d.id, s.id LIMIT ${params.add(limit)}`,
    { bind: params.values, type: QueryTypes.SELECT },
  );
}

/** A page of the dosages of the drugs `name` matches (every drug without it), grouped by drug. */
async function dosagePage(
  sequelize: Sequelize,
  cursors: CursorCodec,
  page: { name: string | undefined; cursor: string; limit: number },
): Promise<catalogueV1.SearchDosagesResponse> {
  const { name, cursor, limit } = page;
  const found = await keysetPage({
    cursors,
    cursor,
    // The whole list's cursors are bound to a query no name search has, so neither walk takes the other's.
    query: name === undefined ? { allDosages: true } : { dosages: name },
    limit,
    isPosition: isTextTuple<DosageKey>(3),
    positionOf: (row: DrugDosageRow): DosageKey => [row.sort_name, row.drug_id, row.id],
    fetch: (after: DosageKey | undefined, rows) => selectDosages(sequelize, name, after, rows),
  });
  return { groups: groupByDrug(found.rows), nextCursor: found.nextCursor };
}

export function dosageHandlers(sequelize: Sequelize, cursors: CursorCodec) {
  return {
    async searchDosages(request: catalogueV1.SearchDosagesRequest): Promise<catalogueV1.SearchDosagesResponse> {
      const [name] = normaliseTerms('n', [request.drugName]);
      if (name === undefined) throw RpcError.invalidArgument('n', 'is required: the drug name to search dosages for');
      return dosagePage(sequelize, cursors, { name, cursor: request.cursor, limit: pageSize(request.batchSize, DOSAGE_BATCH, 'b') });
    },

    /** Every dosage, for the bulk download, in the largest pages a search may ask for. */
    listAllDosages(request: catalogueV1.ListAllDosagesRequest): Promise<catalogueV1.ListAllDosagesResponse> {
      return dosagePage(sequelize, cursors, { name: undefined, cursor: request.cursor, limit: DOSAGE_BATCH.max });
    },

    async getDosage(request: catalogueV1.GetDosageRequest): Promise<catalogueV1.GetDosageResponse> {
      const [row] = await sequelize.query<DrugDosageRow>(
        `SELECT ${DOSAGE_COLUMNS}, d.id::text AS drug_id, d.name AS drug_name
           FROM dosages s JOIN drugs d ON d.id = s.drug_pk WHERE s.id = $1::bigint`,
        { bind: [catalogueId(request.id, 'dosage')], type: QueryTypes.SELECT },
      );
      if (!row) throw notFound('dosage');
      return { drugId: row.drug_id, drugName: row.drug_name, dosage: toDosage(row) };
    },
  };
}
