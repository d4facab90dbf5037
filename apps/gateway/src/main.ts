import { createServer } from 'node:http';
import { openServiceDatabase } from '@libs/db';
import { onShutdownSignal, runMain } from '@libs/lifecycle';
import { createLogger } from '@libs/logging';
import { readConfig } from './config';
import { buildApp } from './http/app';
import { migrations } from './migrations';
import { API_VERSION } from './openapi/version';
import { buildOpenApiDocument } from './openapi/document';
import { allUpstreams, connectUpstreams } from './upstreams/upstreams';

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);

  const sequelize = await openServiceDatabase({
    url: config.DATABASE_URL,
    poolMax: config.DB_POOL_MAX,
    migrations,
    log: (message) => logger.info(message),
  });

  const upstreams = connectUpstreams(config, logger);
  const server = createServer(buildApp(config, logger, sequelize, upstreams, buildOpenApiDocument(API_VERSION)));
  // Bound slow or stalled clients: no request may hold a socket forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const address = server.address();
  logger.info({ port: typeof address === 'object' && address ? address.port : config.PORT }, 'gateway listening');

  onShutdownSignal(logger, async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS))]);
    server.closeAllConnections();
    for (const upstream of allUpstreams(upstreams)) upstream.shutdown();
    await sequelize.close();
  });
}

runMain('gateway', main);
