import express, { type Express } from 'express';
import pinoHttp from 'pino-http';
import type { Sequelize } from 'sequelize';
import { notFoundHandler, problemHandler } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import type { GatewayConfig } from '../config';
import { auditRoutes } from '../routes/audit';
import { diseaseRoutes } from '../routes/diseases';
import { financeRecordRoutes } from '../routes/finance-records';
import { healthRoutes } from '../routes/health';
import { paymentRoutes } from '../routes/payments';
import { transactionRoutes } from '../routes/transactions';
import type { Upstreams } from '../upstreams/upstreams';
import { requireJsonBody } from './json-body';
import { requestId } from './request-id';

export function buildApp(config: GatewayConfig, logger: Logger, sequelize: Sequelize, upstreams: Upstreams): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestId());
  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => res.locals.requestId as string,
      customAttributeKeys: { reqId: 'requestId' },
      autoLogging: { ignore: (req) => req.url === '/healthz' },
    }),
  );
  app.use(requireJsonBody());
  app.use(express.json({ limit: config.BODY_LIMIT_BYTES }));

  app.use(healthRoutes(config, sequelize, upstreams));
  app.use(diseaseRoutes(upstreams, sequelize));
  // Payments first: GET /api/v1/transactions/payments must not reach GET /api/v1/transactions/:id.
  app.use(paymentRoutes(upstreams, sequelize));
  app.use(transactionRoutes(upstreams, sequelize));
  app.use(financeRecordRoutes(upstreams, sequelize));
  app.use(auditRoutes(upstreams, sequelize));

  app.use(notFoundHandler());
  app.use(problemHandler(logger));
  return app;
}
