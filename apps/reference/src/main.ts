import { CursorCodec } from '@libs/cursor';
import { grpcService, startGrpcServer } from '@libs/grpc';
import { startMetricsServer } from '@libs/metrics';
import { referenceV1 } from '@libs/contracts';
import { readConfig } from './config';
import { migrations, TermTables, VOCABULARIES } from '@libs/reference-db';
import { catalogueService } from './catalogue/catalogue-service';
import { datasetVersionHandlers } from './datasets/dataset-versions';
import { diseaseHandlers } from './diseases/disease-handlers';
import { loadDefaultData } from './default-data/load-default-data';
import { onShutdownSignal, runMain, startServiceFoundation } from '@libs/lifecycle';

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('reference', config, migrations);
  if (config.LOAD_DEFAULT_DATA) await loadDefaultData(sequelize, config.DEFAULT_DATA_DIR, logger);

  const cursors = new CursorCodec(config.CURSOR_SECRET);
  // One copy of each vocabulary's terms in memory, for type-ahead and fuzzy search's near pass alike.
  const search = { sequelize, statementTimeoutMs: config.SEARCH_STATEMENT_TIMEOUT_MS, terms: new TermTables(sequelize, VOCABULARIES) };
  const diseases = diseaseHandlers(search, cursors);
  // Reference data reads the same for every role: its calls are served for no actor.
  const handling = { logger, actors: null };
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [grpcService(referenceV1.ReferenceServiceService, handling, { ...diseases, ...datasetVersionHandlers(sequelize) }), catalogueService(search, cursors, handling)],
  });

  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });

  onShutdownSignal(logger, async () => {
    await server.shutdown(config.SHUTDOWN_GRACE_MS);
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('reference', main);
