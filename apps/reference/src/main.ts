import { CursorCodec } from '@libs/cursor';
import { createSequelize, ensureDatabase, runMigrations } from '@libs/db';
import { startGrpcServer, unaryHandler } from '@libs/grpc';
import { createLogger } from '@libs/logging';
import { referenceV1 } from '@libs/contracts';
import { readConfig } from './config';
import { migrations } from './migrations';
import { diseaseHandlers } from './diseases/disease-handlers';
import { loadDefaultData } from './default-data/load-default-data';
import { onShutdownSignal } from '@libs/lifecycle';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger('reference', config.LOG_LEVEL);

  await ensureDatabase(config.DATABASE_URL);
  const sequelize = createSequelize(config.DATABASE_URL, config.DB_POOL_MAX);
  await runMigrations(sequelize, config.DATABASE_URL, migrations, (message) => logger.info(message));
  if (config.LOAD_DEFAULT_DATA) await loadDefaultData(sequelize, config.DEFAULT_DATA_DIR, logger);

  const diseases = diseaseHandlers(sequelize, new CursorCodec(config.CURSOR_SECRET));
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [
      {
        name: 'reference.v1.ReferenceService',
        definition: referenceV1.ReferenceServiceService,
        implementation: {
          searchDiseases: unaryHandler(logger, 'SearchDiseases', diseases.searchDiseases),
        } satisfies referenceV1.ReferenceServiceServer,
      },
    ],
  });

  onShutdownSignal(logger, async () => {
    await server.shutdown(config.SHUTDOWN_GRACE_MS);
    await sequelize.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`reference: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
