import type { Sequelize } from 'sequelize';
import type { CommonConfig } from '@libs/config';
import { openServiceDatabase, type Migration } from '@libs/db';
import { createLogger, type Logger } from '@libs/logging';
import { registerDbPoolMetrics } from '@libs/metrics';
import { initTracing, type Tracing } from '@libs/tracing';
import { logUncaughtErrors } from './log-uncaught';

export interface ServiceFoundation {
  logger: Logger;
  tracing: Tracing;
  /** The service's own database, created if missing and migrated, its pool exported as metrics. */
  sequelize: Sequelize;
}

/** What every service starts with, in the same order: its logger (which records anything uncaught), tracing, and its migrated database. */
export async function startServiceFoundation(
  service: string,
  config: CommonConfig,
  migrations: Migration[],
): Promise<ServiceFoundation> {
  const logger = createLogger(service, config.LOG_LEVEL);
  logUncaughtErrors(logger);
  const tracing = initTracing(service, { otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, logger });
  const sequelize = await openServiceDatabase({
    url: config.DATABASE_URL,
    poolMax: config.DB_POOL_MAX,
    acquireTimeoutMs: config.DB_POOL_ACQUIRE_TIMEOUT_MS,
    migrations,
    log: (message) => logger.info(message),
  });
  registerDbPoolMetrics(sequelize);
  return { logger, tracing, sequelize };
}
