import express, { type Express } from 'express';
import type { Sequelize } from 'sequelize';
import { notFoundHandler, problemHandler } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import { appointmentMoveRoutes } from '../appointments/appointment-move-routes';
import { appointmentRoutes } from '../appointments/appointment-routes';
import { auditRoutes } from '../audit/audit-routes';
import type { GatewayConfig } from '../config';
import { paymentRoutes } from '../finance/payment-routes';
import { financeRecordRoutes } from '../finance/record-routes';
import { transactionRoutes } from '../finance/transaction-routes';
import { AccessGuard } from '../identity/access-guard';
import { accountRoutes } from '../identity/account-routes';
import { keyRoutes } from '../identity/key-routes';
import type { KeyVerifier } from '../identity/key-verifier';
import { userRoutes } from '../identity/user-routes';
import { categoryRoutes } from '../reference/categories-routes';
import { conditionRoutes } from '../reference/conditions-routes';
import { diseaseRoutes } from '../reference/diseases-routes';
import { dosageRoutes } from '../reference/dosages-routes';
import { drugRoutes } from '../reference/drugs-routes';
import { labRoutes } from '../reference/labs-routes';
import { metadataRoutes } from '../reference/metadata-routes';
import { premiseRoutes } from '../reference/premises-routes';
import { schedulingRoutes } from '../scheduling/scheduling-routes';
import type { Release } from './changelog/parse-changelog';
import { changelogRoutes } from './changelog-routes';
import { docsAssets, docsRoutes } from './docs-routes';
import { healthRoutes } from './health-routes';
import { landingRoutes } from './landing-routes';
import { requireHostHeader } from './http/client-errors';
import { compressWhenAccepted } from './http/compression';
import { cors } from './http/cors';
import { dashboard } from './http/dashboard';
import { evaluatePreconditionsAsOrigin } from './http/freshness';
import { databaseUnavailable } from './http/database-unavailable';
import { deferredJsonBody } from './http/json-body';
import { pipeliningLimit } from './http/pipelining-limit';
import { requestId } from './http/request-id';
import { noSniff } from './http/security-headers';
import { httpMetrics } from './observability/http-metrics';
import { requestLog } from './observability/request-log';
import { tracing } from './observability/tracing-middleware';
import { buildOpenApiDocument } from './openapi/document';
import { allOperations } from './operation-list';
import { mountRoutes } from './routing/mount';
import type { Upstreams } from './upstreams/upstreams';

/** What the app is built from; everything it needs is passed in (no module state). */
export interface AppDependencies {
  config: GatewayConfig;
  logger: Logger;
  sequelize: Sequelize;
  /** Verifies API keys and holds their limits: one per process, started before the app is built. */
  keys: KeyVerifier;
  upstreams: Upstreams;
  /** CHANGELOG.md's releases, newest first: served as JSON, and the newest dated one is the API's version. */
  releases: Release[];
}

export function buildApp({ config, logger, sequelize, keys, upstreams, releases }: AppDependencies): Express {
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

  // The API's version is the newest release's: an Unreleased section has none yet.
  const released = releases.find((release) => release.date !== null);
  const version = released?.version ?? '0.0.0';
  const routes = [
    ...landingRoutes(version),
    ...healthRoutes(config, sequelize, upstreams),
    ...docsRoutes(buildOpenApiDocument(allOperations(), version, config.PUBLIC_BASE_URL)),
    ...metadataRoutes(allOperations(), released),
    ...changelogRoutes(releases),
    ...accountRoutes(config, sequelize),
    ...keyRoutes(config, sequelize, keys),
    ...userRoutes(config, sequelize, keys),
    ...[diseaseRoutes, labRoutes, dosageRoutes, drugRoutes, categoryRoutes, conditionRoutes, premiseRoutes].flatMap((area) => area(upstreams)),
    // Payments first: GET /api/v1/transactions/payments must not reach GET /api/v1/transactions/{id}.
    ...paymentRoutes(upstreams),
    ...transactionRoutes(upstreams),
    ...financeRecordRoutes(upstreams),
    ...appointmentRoutes(upstreams),
    ...appointmentMoveRoutes(upstreams),
    ...auditRoutes(upstreams),
    ...schedulingRoutes(upstreams),
  ];
  app.use(docsAssets());
  app.use(dashboard());
  app.use(mountRoutes(routes, new AccessGuard(sequelize, keys)));

  app.use(notFoundHandler());
  // Retry-After as for the services' 503s: the breaker's reset time.
  app.use(databaseUnavailable(logger, Math.ceil(config.BREAKER_RESET_MS / 1000)));
  app.use(problemHandler(logger));
  return app;
}
