import express, { type Express } from 'express';
import type { Sequelize } from 'sequelize';
import { notFoundHandler, problemHandler } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import { AREAS } from './areas';
import type { GatewayConfig } from './config';
import { AccessGuard } from './identity/access-guard';
import type { KeyVerifier } from './identity/key-verifier';
import type { Release } from './platform/changelog/parse-changelog';
import { docsAssets } from './platform/docs-routes';
import { requireHostHeader } from './platform/http/client-errors';
import { compressWhenAccepted } from './platform/http/compression';
import { cors } from './platform/http/cors';
import { dashboard } from './platform/http/dashboard';
import { evaluatePreconditionsAsOrigin } from './platform/http/freshness';
import { databaseUnavailable } from './platform/http/database-unavailable';
import { deferredJsonBody } from './platform/http/json-body';
import { pipeliningLimit } from './platform/http/pipelining-limit';
import { requestId } from './platform/http/request-id';
import { noSniff } from './platform/http/security-headers';
import { httpMetrics } from './platform/observability/http-metrics';
import { requestLog } from './platform/observability/request-log';
import { tracing } from './platform/observability/tracing-middleware';
import { describedApi, routesOf, type DescribedApi } from './platform/routing/area';
import { mountRoutes } from './platform/routing/mount';
import type { Upstreams } from './platform/upstreams/upstreams';

/** What the app is built from; everything it needs is passed in (no module state). */
interface AppDependencies {
  config: GatewayConfig;
  logger: Logger;
  sequelize: Sequelize;
  /** Verifies API keys and holds their limits: one per process, started before the app is built. */
  keys: KeyVerifier;
  upstreams: Upstreams;
  /** CHANGELOG.md's releases, newest first: served as JSON, and the newest dated one is the API's version. */
  releases: Release[];
  /** Wakes the identity area's relays (identity.events, account mails) after a commit that gave them work; none: they poll. */
  afterIdentityCommit?: () => void;
}

/** What each area's routes are built from: the app's dependencies, and every operation and webhook (for the documents). */
type AreaDependencies = Omit<AppDependencies, 'logger'> & Required<Pick<AppDependencies, 'afterIdentityCommit'>> & DescribedApi;

export function buildApp({ config, logger, sequelize, keys, upstreams, releases, afterIdentityCommit = () => undefined }: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  evaluatePreconditionsAsOrigin(app);
  app.locals.publicBaseUrl = config.PUBLIC_BASE_URL;
  if (config.TRUST_PROXY) app.set('trust proxy', /^\d+$/.test(config.TRUST_PROXY) ? Number(config.TRUST_PROXY) : config.TRUST_PROXY);
  app.use(pipeliningLimit());
  app.use(requestId());
  app.use(noSniff());
  app.use(tracing());
  app.use(httpMetrics());
  app.use(requestLog(logger));
  app.use(requireHostHeader());
  app.use(cors(config.CORS_ALLOWED_ORIGINS));
  app.use(compressWhenAccepted());
  // Bodies are read by the operations that take one, after their key check (platform/routing/mount.ts).
  app.use(deferredJsonBody(config.BODY_LIMIT_BYTES));

  const routes = routesOf<AreaDependencies>(AREAS, { config, sequelize, keys, upstreams, releases, afterIdentityCommit, ...describedApi(AREAS) });
  app.use(docsAssets());
  app.use(dashboard());
  app.use(mountRoutes(routes, new AccessGuard(sequelize, keys)));

  app.use(notFoundHandler());
  // Retry-After as for the services' 503s: the breaker's reset time.
  app.use(databaseUnavailable(logger, Math.ceil(config.BREAKER_RESET_MS / 1000)));
  app.use(problemHandler(logger));
  return app;
}
