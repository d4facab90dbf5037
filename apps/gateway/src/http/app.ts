import compression from 'compression';
import express, { type Express } from 'express';
import pinoHttp from 'pino-http';
import type { Sequelize } from 'sequelize';
import { notFoundHandler, problemHandler } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import type { GatewayConfig } from '../config';
import { httpMetrics } from '../observability/http-metrics';
import { tracing } from '../observability/tracing-middleware';
import { auditRoutes } from '../routes/audit';
import { categoryRoutes } from '../routes/categories';
import { changelogRoutes } from '../routes/changelog';
import type { Release } from '../changelog/parse-changelog';
import { conditionRoutes } from '../routes/conditions';
import { diseaseRoutes } from '../routes/diseases';
import { docsRoutes } from '../routes/docs';
import { dosageRoutes } from '../routes/dosages';
import { drugRoutes } from '../routes/drugs';
import type { OpenApiDocument } from '../openapi/document';
import { healthRoutes } from '../routes/health';
import { labRoutes } from '../routes/labs';
import { metricsRoutes } from '../routes/metrics';
import { premiseRoutes } from '../routes/premises';
import { transactionRoutes } from '../routes/transactions';
import type { Upstreams } from '../upstreams/upstreams';
import { requireJsonBody } from './json-body';
import { requestId } from './request-id';

export function buildApp(config: GatewayConfig, logger: Logger, sequelize: Sequelize, upstreams: Upstreams,
  openApi: OpenApiDocument,
  releases: Release[],
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestId());
  app.use(tracing());
  app.use(httpMetrics());
  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => res.locals.requestId as string,
      customAttributeKeys: { reqId: 'requestId' },
      autoLogging: { ignore: (req) => req.url === '/healthz' },
    }),
  );
  // Small bodies gain nothing from compression and cost CPU, hence the threshold.
  app.use(compression({ threshold: 1024 }));
  app.use(requireJsonBody());
  app.use(express.json({ limit: config.BODY_LIMIT_BYTES }));

  app.use(healthRoutes(config, sequelize, upstreams));
  app.use(docsRoutes(openApi));
  app.use(metricsRoutes());
  app.use(changelogRoutes(releases));
  app.use(diseaseRoutes(upstreams, sequelize));
  for (const routes of [labRoutes, dosageRoutes, drugRoutes, categoryRoutes, conditionRoutes, premiseRoutes]) {
    app.use(routes(upstreams, sequelize));
  }
  app.use(transactionRoutes(upstreams, sequelize));
  app.use(auditRoutes(upstreams, sequelize));

  app.use(notFoundHandler());
  app.use(problemHandler(logger));
  return app;
}
