import { QueryTypes, type Sequelize } from 'sequelize';
import { isTextTuple, keysetPage, type CursorCodec } from '@libs/cursor';
import { REFERENCE_LIMITS, type catalogueV1 } from '@libs/contracts';
import { SqlParams } from './sql-params';

/**
 * Interactions name their drug by DrugBank id or name (they come from another source than the drugs): the
 * interactions `f` of the drug `d`.
 */
export const INTERACTIONS_OF_DRUG = '(f.drugbank_id = d.drugbank_id OR lower(f.drug_name) = lower(d.name))';

/** An interaction's columns, named as catalogueV1.FoodInteraction's fields. */
export const FOOD_INTERACTION_COLUMNS = "f.id::text AS id, f.food, coalesce(f.severity, '') AS severity, f.effect, f.advice";

interface DrugInteractionRow extends catalogueV1.FoodInteraction {
  drug_id: string;
  drug_name: string;
  drugbank_id: string | null;
  sort_name: string;
}

/** Keyset position: [lower(drug name), drug id, interaction id]. */
type InteractionKey = [string, string, string];

/**
 * Drugs in name order, each with its interactions in id order, after a keyset position. As for dosages, the
 * position splits in two (drugs at or after the cursor's, and within that drug only interactions after the
 * cursor's), so the plan walks the drugs' name index and looks each drug's interactions up by its two indexes.
 */
function selectInteractions(sequelize: Sequelize, after: InteractionKey | undefined, limit: number) {
  const params = new SqlParams();
  let drugAfter = 'TRUE';
  let interactionAfter = 'TRUE';
  if (after) {
    const drugId = params.add(after[1]);
    drugAfter = `(lower(d.name), d.id) >= (${params.add(after[0])}, ${drugId}::bigint)`;
    interactionAfter = `(d.id <> ${drugId}::bigint OR f.id > ${params.add(after[2])}::bigint)`;
  }
  return sequelize.query<DrugInteractionRow>(
    `SELECT i.*, d.id::text AS drug_id, d.name AS drug_name, d.drugbank_id, lower(d.name) AS sort_name
       FROM drugs d
       JOIN LATERAL (SELECT ${FOOD_INTERACTION_COLUMNS} FROM food_interactions f
                      WHERE ${INTERACTIONS_OF_DRUG} AND ${interactionAfter}) i ON TRUE
      WHERE ${drugAfter}
      ORDER BY lower(d.name), d.id, i.id::bigint LIMIT ${params.add(limit)}`,
    { bind: params.values, type: QueryTypes.SELECT },
  );
}

const toDrugInteraction = (row: DrugInteractionRow): catalogueV1.DrugFoodInteraction => ({
  id: row.id,
  food: row.food,
  severity: row.severity,
  effect: row.effect,
  advice: row.advice,
  drugId: row.drug_id,
  drugName: row.drug_name,
  drugDrugbankId: row.drugbank_id ?? '',
});

export function foodInteractionHandlers(sequelize: Sequelize, cursors: CursorCodec) {
  return {
    /** Every drug's food interactions, for the bulk download (proto: ListAllFoodInteractions). */
    async listAllFoodInteractions(request: catalogueV1.ListAllFoodInteractionsRequest): Promise<catalogueV1.ListAllFoodInteractionsResponse> {
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { foodInteractions: 'all' },
        limit: REFERENCE_LIMITS.foodInteractionPage,
        isPosition: isTextTuple<InteractionKey>(3),
        positionOf: (row: DrugInteractionRow): InteractionKey => [row.sort_name, row.drug_id, row.id],
        fetch: (after: InteractionKey | undefined, limit) => selectInteractions(sequelize, after, limit),
      });
      return { interactions: page.rows.map(toDrugInteraction), nextCursor: page.nextCursor };
    },
  };
}
