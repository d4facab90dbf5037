import { QueryTypes } from 'sequelize';
import { cursorPosition, isTextPair, keysetPage, type CursorCodec } from '@libs/cursor';
import { REFERENCE_LIMITS, type catalogueV1 } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import { DRUG_TERMS, foldText, FUZZY_RANKING, fuzzyPage, type SearchDb } from '@libs/reference-db';
import { LINE_TEXT } from '@libs/safe-text';
import { notFound } from '@libs/validation';
import { answeringTimeouts, isFuzzyPosition } from '../search-errors';
import { CATEGORY_COLUMNS, toCategory, type CategoryRow } from './categories';
import { nameKeyOf, selectByName, type NameKey } from './by-name';
import { DOSAGE_COLUMNS, toDosage, type DosageRow } from './dosages';
import { FOOD_INTERACTION_COLUMNS, INTERACTIONS_OF_DRUG } from './food-interactions';
import { catalogueId } from './request-checks';

interface DrugRow {
  id: string;
  name: string;
  drugbank_id: string | null;
  description: string;
  atc_codes: string[];
}

const DRUG_COLUMNS = `t.name, t.drugbank_id, t.description,
  ARRAY(SELECT a.atc_code FROM drug_atc_codes a WHERE a.drug_pk = t.id ORDER BY a.atc_code) AS atc_codes`;

const toDrug = (row: DrugRow): catalogueV1.Drug => ({
  id: row.id,
  name: row.name,
  drugbankId: row.drugbank_id ?? '',
  description: row.description,
  atcCodes: row.atc_codes,
});

const SEVERITY_ORDER = `CASE f.severity WHEN 'major' THEN 0 WHEN 'moderate' THEN 1 WHEN 'minor' THEN 2 ELSE 3 END`;

/** A drug name searched (`n`): longer text is no drug name, and would only make the trigram scan slower. */
const MAX_SEARCH_LENGTH = REFERENCE_LIMITS.termMaxLength;

/** The drug search's text, folded as the terms are (case and accents ignored); refused as disease search refuses it. */
function searchText(name: string): string {
  if (name.length > MAX_SEARCH_LENGTH) throw RpcError.invalidArgument('n', `must be at most ${MAX_SEARCH_LENGTH} characters`);
  // The fuzzy search sends its text as a literal, where a NUL would break the whole message (search-statement.ts).
  if (!LINE_TEXT.accepts(name)) throw RpcError.invalidArgument('n', LINE_TEXT.message);
  return foldText(name);
}

export function drugHandlers(search: SearchDb, cursors: CursorCodec) {
  const { sequelize } = search;

  /** The rows of these drugs, in the order given. */
  async function drugsByPk(pks: string[]): Promise<DrugRow[]> {
    if (pks.length === 0) return [];
    const rows = await sequelize.query<DrugRow>(`SELECT t.id::text AS id, ${DRUG_COLUMNS} FROM drugs t WHERE t.id = ANY($1::bigint[])`, {
      bind: [pks],
      type: QueryTypes.SELECT,
    });
    const byPk = new Map(rows.map((row) => [row.id, row]));
    return pks.flatMap((pk) => byPk.get(pk) ?? []);
  }

  /** A page of the typo-tolerant drug search, best match first (docs/SEARCH.md, "Drug search"). */
  async function searchDrugs(term: string, cursor: string): Promise<catalogueV1.ListDrugsResponse> {
    // The ranking is bound: a cursor's position means nothing to another.
    const query = { drugs: term, ranking: FUZZY_RANKING };
    const page = await answeringTimeouts(() =>
      fuzzyPage(search, DRUG_TERMS, term, 'relevance', REFERENCE_LIMITS.drugPage, cursorPosition(cursors, cursor, query, isFuzzyPosition)),
    );
    return {
      drugs: (await drugsByPk(page.pks)).map(toDrug),
      nextCursor: page.next ? cursors.encode(query, page.next) : '',
    };
  }

  async function findDrug(id: string): Promise<DrugRow> {
    const [row] = await sequelize.query<DrugRow>(`SELECT t.id::text AS id, ${DRUG_COLUMNS} FROM drugs t WHERE t.id = $1::bigint`, {
      bind: [catalogueId(id, 'drug')],
      type: QueryTypes.SELECT,
    });
    if (!row) throw notFound('drug');
    return row;
  }

  return {
    async listDrugs(request: catalogueV1.ListDrugsRequest): Promise<catalogueV1.ListDrugsResponse> {
      const term = searchText(request.name);
      if (term !== '') return searchDrugs(term, request.cursor);
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { drugs: 'all' },
        limit: REFERENCE_LIMITS.drugPage,
        isPosition: isTextPair,
        positionOf: nameKeyOf,
        fetch: (after: NameKey | undefined, limit) =>
          selectByName<DrugRow>(sequelize, { table: 'drugs', columns: DRUG_COLUMNS, after, limit }),
      });
      return { drugs: page.rows.map(toDrug), nextCursor: page.nextCursor };
    },

    async getDrug(request: catalogueV1.GetDrugRequest): Promise<catalogueV1.GetDrugResponse> {
      const drug = await findDrug(request.id);
      const dosages = await sequelize.query<DosageRow>(
        `SELECT ${DOSAGE_COLUMNS} FROM dosages s WHERE s.drug_pk = $1::bigint ORDER BY s.id`,
        { bind: [drug.id], type: QueryTypes.SELECT },
      );
      // The drug's ATC codes and the groups above them (code prefixes of length 1, 3, 4 and 5).
      const categories = await sequelize.query<CategoryRow>(
        `SELECT ${CATEGORY_COLUMNS} FROM drug_categories c
          WHERE c.code IN (SELECT left(a.atc_code, n) FROM drug_atc_codes a, unnest(ARRAY[1, 3, 4, 5, 7]) AS n
                            WHERE a.drug_pk = $1::bigint)
          ORDER BY c.code`,
        { bind: [drug.id], type: QueryTypes.SELECT },
      );
      return {
        drug: toDrug(drug),
        dosages: dosages.map(toDosage),
        categories: categories.map((row) => toCategory(row)),
      };
    },

    async listFoodInteractions(
      request: catalogueV1.ListFoodInteractionsRequest,
    ): Promise<catalogueV1.ListFoodInteractionsResponse> {
      const drug = await findDrug(request.drugId);
      const interactions = await sequelize.query<catalogueV1.FoodInteraction>(
        `SELECT ${FOOD_INTERACTION_COLUMNS} FROM drugs d JOIN food_interactions f ON ${INTERACTIONS_OF_DRUG}
          WHERE d.id = $1::bigint
          ORDER BY ${SEVERITY_ORDER}, lower(f.food), f.id`,
        { bind: [drug.id], type: QueryTypes.SELECT },
      );
      return {
        drug: { id: drug.id, name: drug.name, drugbankId: drug.drugbank_id ?? '' },
        interactions,
      };
    },
  };
}
