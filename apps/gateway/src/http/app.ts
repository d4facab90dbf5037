import compression from 'compression';
import express, { type Express } from 'express';
import type { Sequelize } from 'sequelize';
import { notFoundHandler, problemHandler } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import type { GatewayConfig } from '../config';
import { httpMetrics } from '../observability/http-metrics';
import { requestLog } from '../observability/request-log';
import { tracing } from '../observability/tracing-middleware';
import { auditRoutes } from '../routes/audit';
import { categoryRoutes } from '../routes/categories';
import { changelogRoutes } from '../routes/changelog';
import type { Release } from '../changelog/parse-changelog';
import { conditionRoutes } from '../routes/conditions';
import { authRoutes } from '../routes/auth';
import { authKeyRoutes } from '../routes/auth-keys';
import { authUserRoutes } from '../routes/auth-users';
import { diseaseRoutes } from '../routes/diseases';
import { docsRoutes } from '../routes/docs';
import { dosageRoutes } from '../routes/dosages';
import { drugRoutes } from '../routes/drugs';
import { buildOpenApiDocument } from '../openapi/document';
import { healthRoutes } from '../routes/health';
import { labRoutes } from '../routes/labs';
import { premiseRoutes } from '../routes/premises';
import { financeRecordRoutes } from '../routes/finance-records';
import { paymentRoutes } from '../routes/payments';
import { transactionRoutes } from '../routes/transactions';
import type { Upstreams } from '../upstreams/upstreams';
import { requireHostHeader } from './client-errors';
import { dashboard } from './dashboard';
import { databaseUnavailable } from './database-unavailable';
import { deferredJsonBody } from './json-body';
import { pipeliningLimit } from './pipelining-limit';
import { requestId } from './request-id';
import { noSniff } from './security-headers';

export function buildApp(
  config: GatewayConfig,
  logger: Logger,
  sequelize: Sequelize,
  upstreams: Upstreams,
  /** CHANGELOG.md's releases, newest first: served as JSON, and the newest dated one is the API's version. */
  releases: Release[],
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  if (config.TRUST_PROXY) app.set('trust proxy', /^\d+$/.test(config.TRUST_PROXY) ? Number(config.TRUST_PROXY) : config.TRUST_PROXY);
  app.use(pipeliningLimit());
  app.use(requestId());
  app.use(noSniff());
  app.use(tracing());
  app.use(httpMetrics());
  app.use(requestLog(logger));
  app.use(requireHostHeader());
  // Small bodies gain nothing from compression and cost CPU, hence the threshold.
  app.use(compression({ threshold: 1024 }));
  // Bodies are read by the operations that take one, after their key check (parseBody).
  app.use(deferredJsonBody(config.BODY_LIMIT_BYTES));

  app.use(healthRoutes(config, sequelize, upstreams));
  // The API's version is the newest release's: an Unreleased section has none yet.
  const released = releases.find((release) => release.date !== null);
  app.use(docsRoutes(buildOpenApiDocument(released?.version ?? '0.0.0')));
  app.use(changelogRoutes(releases));
  app.use(dashboard());
  app.use(authRoutes(config, sequelize));
  app.use(authKeyRoutes(config, sequelize));
  app.use(authUserRoutes(config, sequelize));
  app.use(diseaseRoutes(upstreams, sequelize));
  for (const routes of [labRoutes, dosageRoutes, drugRoutes, categoryRoutes, conditionRoutes, premiseRoutes]) {
    app.use(routes(upstreams, sequelize));
  }
  // Payments first: GET /api/v1/transactions/payments must not reach GET /api/v1/transactions/:id.
  app.use(paymentRoutes(upstreams, sequelize));
  app.use(transactionRoutes(upstreams, sequelize));
  app.use(financeRecordRoutes(upstreams, sequelize));
  app.use(auditRoutes(upstreams, sequelize));

  app.use(notFoundHandler());
  // Retry-After as for the services' 503s: the breaker's reset time.
  app.use(databaseUnavailable(logger, Math.ceil(config.BREAKER_RESET_MS / 1000)));
  app.use(problemHandler(logger));
  return app;
}
