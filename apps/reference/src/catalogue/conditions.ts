import { QueryTypes, type Sequelize } from 'sequelize';
import { isTextPair, keysetPage, type CursorCodec } from '@libs/cursor';
import { REFERENCE_LIMITS, type catalogueV1 } from '@libs/contracts';
import { nameKeyOf, selectByName, type NameKey } from './by-name';
import { normaliseTerms } from './request-checks';
import { anyContains } from './sql-params';

interface ConditionRow {
  id: string;
  name: string;
  doid: string | null;
  description: string;
}

/**
 * The indications of the given conditions, by drug name. Indications name their
 * drug (another source than the drugs), so the catalogue's drug is found by
 * DrugBank id, else by name; drugId stays empty when the catalogue lacks it.
 */
async function indicationsOf(sequelize: Sequelize, conditionIds: string[]): Promise<Map<string, catalogueV1.Indication[]>> {
  const rows = await sequelize.query<catalogueV1.Indication & { condition_id: string }>(
    `SELECT i.condition_pk::text AS condition_id, i.drug_name AS "drugName", coalesce(i.drugbank_id, '') AS "drugbankId",
            coalesce(d.id::text, '') AS "drugId", i.type
       FROM indications i
       LEFT JOIN LATERAL (
         SELECT d.id FROM drugs d
          WHERE d.drugbank_id = i.drugbank_id OR lower(d.name) = lower(i.drug_name)
          ORDER BY d.drugbank_id IS NOT DISTINCT FROM i.drugbank_id DESC, d.id LIMIT 1) d ON TRUE
      WHERE i.condition_pk = ANY($1::bigint[])
      ORDER BY i.condition_pk, lower(i.drug_name)`,
    { bind: [conditionIds], type: QueryTypes.SELECT },
  );
  const byCondition = new Map<string, catalogueV1.Indication[]>();
  for (const { condition_id: conditionId, ...indication } of rows) {
    byCondition.set(conditionId, [...(byCondition.get(conditionId) ?? []), indication]);
  }
  return byCondition;
}

export function conditionHandlers(sequelize: Sequelize, cursors: CursorCodec) {
  return {
    async listConditions(request: catalogueV1.ListConditionsRequest): Promise<catalogueV1.ListConditionsResponse> {
      const terms = normaliseTerms('q', [request.name]);
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { conditions: terms },
        limit: REFERENCE_LIMITS.conditionPage,
        isPosition: isTextPair,
        positionOf: nameKeyOf,
        fetch: (after: NameKey | undefined, limit) =>
          selectByName<ConditionRow>(sequelize, {
            table: 'conditions',
            columns: 't.name, t.doid, t.description',
            where: (params) => anyContains(params, 't.name', terms),
            after,
            limit,
          }),
      });
      const indications = request.includeIndications
        ? await indicationsOf(sequelize, page.rows.map((row) => row.id))
        : new Map<string, catalogueV1.Indication[]>();
      return {
        conditions: page.rows.map((row) => ({
          id: row.id,
          name: row.name,
          doid: row.doid ?? '',
          description: row.description,
          indications: indications.get(row.id) ?? [],
        })),
        nextCursor: page.nextCursor,
      };
    },
  };
}
