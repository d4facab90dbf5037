import type { Sequelize } from 'sequelize';
import { CursorCodec, InvalidCursorError } from '@libs/cursor';
import { GrpcStatus, RpcError } from '@libs/grpc';
import { referenceV1 } from '@libs/contracts';
import { searchDiseases, type DiseaseOrder, type DiseaseRow } from './disease-store';

export const MAX_DISEASE_BATCH = 250;
export const DEFAULT_DISEASE_BATCH = 25;

function toDisease(row: DiseaseRow): referenceV1.Disease {
  return {
    id: row.id,
    diseaseName: row.name,
    diseaseId: row.disease_id,
    alternativeDiseaseIds: row.alternative_ids.join('|'),
    definition: row.definition,
    parentIds: row.parent_ids.join('|'),
    treeNumbers: row.tree_numbers.join('|'),
    parentTreeNumbers: row.parent_tree_numbers.join('|'),
    synonyms: row.synonyms,
    slimMappings: row.slim_mappings,
  };
}

function orderOf(request: referenceV1.SearchDiseasesRequest): DiseaseOrder {
  if (request.sortByName) return request.order === referenceV1.SortOrder.SORT_ORDER_DESC ? 'name-desc' : 'name-asc';
  return request.name.trim() === '' ? 'id' : 'relevance';
}

export function diseaseHandlers(sequelize: Sequelize, cursors: CursorCodec) {
  return {
    async searchDiseases(request: referenceV1.SearchDiseasesRequest): Promise<referenceV1.SearchDiseasesResponse> {
      const limit = request.batchSize === 0 ? DEFAULT_DISEASE_BATCH : request.batchSize;
      if (limit < 1 || limit > MAX_DISEASE_BATCH) {
        throw new RpcError(GrpcStatus.INVALID_ARGUMENT, `batch size must be 1 to ${MAX_DISEASE_BATCH}`, [
          { field: 'b', message: `must be an integer from 1 to ${MAX_DISEASE_BATCH}` },
        ]);
      }
      const term = request.name.trim().toLowerCase();
      const order = orderOf(request);
      // The page size is not part of the query a cursor is bound to: a client may change b mid-walk.
      const query = { term, exact: request.exact, order };
      let after: [string | null, string] | undefined;
      if (request.cursor) {
        try {
          after = cursors.decode<[string | null, string]>(request.cursor, query);
        } catch (error) {
          if (!(error instanceof InvalidCursorError)) throw error;
          throw new RpcError(GrpcStatus.INVALID_ARGUMENT, error.message, [{ field: 'cursor', message: error.message }]);
        }
      }
      const rows = await searchDiseases(sequelize, { term, exact: request.exact, order, limit: limit + 1, after });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        diseases: page.map(toDisease),
        nextCursor: rows.length > limit && last ? cursors.encode(query, [last.sort_key, last.id]) : '',
      };
    },
  };
}
