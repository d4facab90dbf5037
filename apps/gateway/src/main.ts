import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { onShutdownSignal, runMain, startServiceFoundation } from '@libs/lifecycle';
import { startMetricsServer } from '@libs/metrics';
import { bootstrapAdmin } from './identity/bootstrap-admin';
import { keyVerifierOptions, startKeyVerifier } from './identity/key-verifier';
import { startIdentityRelays } from './identity/start-identity-relays';
import { readConfig } from './config';
import { buildApp } from './app';
import { answerClientErrors } from './platform/http/client-errors';
import { migrations } from './migrations';
import { parseChangelog } from './platform/changelog/parse-changelog';
import { registerBreakerStates } from './platform/upstreams/upstream-metrics';
import { allUpstreams, connectUpstreams } from './platform/upstreams/upstreams';

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('gateway', config, migrations);
  // Read once at start: a malformed changelog stops the gateway at once. Its newest dated release is the API's version.
  const releases = parseChangelog(readFileSync(config.CHANGELOG_PATH, 'utf8'));
  await bootstrapAdmin(config, sequelize, logger);
  const keys = await startKeyVerifier(sequelize, keyVerifierOptions(config), logger);

  const upstreams = connectUpstreams(config, logger);
  registerBreakerStates(() => allUpstreams(upstreams));
  const identityRelays = await startIdentityRelays(sequelize, config, upstreams, logger);
  // Bound slow or stalled clients (slowloris): no request may hold a socket for
  // longer than these, and Node checks them often enough to notice in time.
  const requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(config.HTTP_HEADERS_TIMEOUT_MS, requestTimeout);
  const server = createServer(
    {
      requestTimeout,
      headersTimeout,
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
      // The request line and every header together; more is refused with 431 (answerClientErrors).
      maxHeaderSize: config.HTTP_MAX_HEADER_BYTES,
      // The app answers a missing Host itself, as a problem (requireHostHeader), where Node's answer is bare.
      requireHostHeader: false,
    },
    buildApp({ config, logger, sequelize, keys, upstreams, releases, afterIdentityCommit: identityRelays.nudge }),
  );
  answerClientErrors(server, logger);
  await new Promise<void>((resolve) => server.listen(config.PORT, config.HOST, resolve));
  const address = server.address();
  logger.info({ port: typeof address === 'object' && address ? address.port : config.PORT }, 'gateway listening');
  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });

  onShutdownSignal(logger, async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS))]);
    server.closeAllConnections();
    await metrics.close();
    await identityRelays.stop();
    for (const upstream of allUpstreams(upstreams)) upstream.shutdown();
    await keys.stop();
    await sequelize.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('gateway', main);
