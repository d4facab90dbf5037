import { createServer } from 'node:http';
import { openServiceDatabase } from '@libs/db';
import { onShutdownSignal, runMain } from '@libs/lifecycle';
import { createLogger } from '@libs/logging';
import { bootstrapAdmin } from './auth/bootstrap-admin';
import { installKeyVerifier, keyVerifierOptions } from './auth/key-verifier';
import { readConfig } from './config';
import { buildApp } from './http/app';
import { migrations } from './migrations';
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

  await bootstrapAdmin(config, sequelize, logger);
  const keys = await installKeyVerifier(sequelize, keyVerifierOptions(config), logger);

  const upstreams = connectUpstreams(config, logger);
  const server = createServer(buildApp(config, logger, sequelize, upstreams));
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
    await keys.stop();
    await sequelize.close();
  });
}

runMain('gateway', main);
