import { cursorPosition, isTextPair, keysetPage, pageSize, type CursorCodec } from '@libs/cursor';
import { RpcError } from '@libs/grpc';
import { DISEASE, messageOf, REFERENCE_LIMITS, referenceV1 } from '@libs/contracts';
import { LINE_TEXT } from '@libs/safe-text';
import {
  DISEASE_TERMS,
  diseasesByPk,
  FUZZY_RANKING,
  fuzzyPage,
  listDiseases,
  type DiseaseFields,
  type DiseaseKey,
  type DiseaseName,
  type DiseaseRow,
  type FuzzyOrder,
  type ListOrder,
  type SearchDb,
} from '@libs/reference-db';
import { answeringTimeouts, isFuzzyPosition } from '../search-errors';

/** Diseases per page: `b` in the API. */
export const DISEASE_BATCH = REFERENCE_LIMITS.diseaseBatch;
/** Longer text is no disease name, and would only make the trigram scan slower. */
const MAX_SEARCH_LENGTH = REFERENCE_LIMITS.diseaseNameMaxLength;

function toDisease(row: DiseaseName | DiseaseRow): referenceV1.Disease {
  // Names only (names_only): the other fields keep their defaults, which the answer does not carry on the wire.
  if (!('diseaseId' in row)) return referenceV1.Disease.create({ id: row.id, diseaseName: row.name });
  return { id: row.id, ...messageOf(DISEASE, row) };
}

function nameOrder(request: referenceV1.SearchDiseasesRequest): 'name-asc' | 'name-desc' | undefined {
  if (!request.sortByName) return undefined;
  return request.order === referenceV1.SortOrder.SORT_ORDER_DESC ? 'name-desc' : 'name-asc';
}

export function diseaseHandlers(db: SearchDb, cursors: CursorCodec) {
  // Neither the page size nor names_only is part of the query a cursor is bound to: a client may change b mid-walk,
  // and the fields read change no match, order or position, so a cursor made with names alone serves the detailed
  // answer and the other way round (the gateway asks for names alone for r=false in JSON, not for r=true or FHIR).
  async function fuzzy(term: string, order: FuzzyOrder, limit: number, cursor: string, fields: DiseaseFields) {
    // The ranking is bound: a cursor's position means nothing to another.
    const query = { term, exact: false, order, ranking: FUZZY_RANKING };
    // The fuzzy pass ranks every candidate in memory (fuzzyPage), so it finds the next page itself.
    const page = await fuzzyPage(db, DISEASE_TERMS, term, order, limit, cursorPosition(cursors, cursor, query, isFuzzyPosition));
    return {
      rows: await diseasesByPk(db, page.pks, fields),
      nextCursor: page.next ? cursors.encode(query, page.next) : '',
    };
  }

  const listing = (exactTerm: string | undefined, order: ListOrder, limit: number, cursor: string, fields: DiseaseFields) =>
    keysetPage({
      cursors,
      cursor,
      query: { term: exactTerm ?? '', exact: exactTerm !== undefined, order },
      limit,
      isPosition: isTextPair,
      positionOf: (row: DiseaseKey): [string, string] => [row.name_key, row.id],
      fetch: (after, rows) => listDiseases(db, { exactTerm, order, limit: rows, after }, fields),
    });

  return {
    async searchDiseases(request: referenceV1.SearchDiseasesRequest): Promise<referenceV1.SearchDiseasesResponse> {
      const limit = pageSize(request.batchSize, DISEASE_BATCH, 'b');
      if (request.name.length > MAX_SEARCH_LENGTH) throw RpcError.invalidArgument('n', `must be at most ${MAX_SEARCH_LENGTH} characters`);
      // The fuzzy search sends its text as a literal (search-statement.ts), where a NUL would break the whole message, and
      // PostgreSQL text holds none either way: refused alike for every kind of search.
      if (!LINE_TEXT.accepts(request.name)) throw RpcError.invalidArgument('n', LINE_TEXT.message);
      const term = request.name.trim().toLowerCase();
      const byName = nameOrder(request);
      const fields: DiseaseFields = request.namesOnly ? 'names' : 'all';
      const page = await answeringTimeouts(() =>
        term !== '' && !request.exact
          ? fuzzy(term, byName ?? 'relevance', limit, request.cursor, fields)
          : listing(term === '' ? undefined : term, byName ?? 'id', limit, request.cursor, fields),
      );
      return { diseases: page.rows.map(toDisease), nextCursor: page.nextCursor };
    },
  };
}
