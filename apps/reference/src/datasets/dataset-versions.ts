import { QueryTypes, type Sequelize } from 'sequelize';
import { isBulkDataset, type referenceV1 } from '@libs/contracts';
import { RpcError } from '@libs/grpc';

/** The version of a bulk dataset, which the triggers of migrations 0009 and 0011 renew on every write to its tables. */
export function datasetVersionHandlers(sequelize: Sequelize) {
  return {
    async getDatasetVersion(request: referenceV1.GetDatasetVersionRequest): Promise<referenceV1.GetDatasetVersionResponse> {
      if (!isBulkDataset(request.dataset)) throw RpcError.invalidArgument('dataset', 'must name a bulk dataset');
      const [row] = await sequelize.query<{ version: string }>('SELECT version::text AS version FROM dataset_versions WHERE dataset = $1', {
        bind: [request.dataset],
        type: QueryTypes.SELECT,
      });
      // Every dataset's row is made by the migration that adds the triggers.
      if (!row) throw new Error(`dataset ${request.dataset} has no version`);
      return { version: row.version };
    },
  };
}
