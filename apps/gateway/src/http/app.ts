import express, { type Express } from 'express';
import pinoHttp from 'pino-http';
import type { Sequelize } from 'sequelize';
import { notFoundHandler, problemHandler } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import type { GatewayConfig } from '../config';
import { auditRoutes } from '../routes/audit';
import { authRoutes } from '../routes/auth';
import { authKeyRoutes } from '../routes/auth-keys';
import { authUserRoutes } from '../routes/auth-users';
import { diseaseRoutes } from '../routes/diseases';
import { healthRoutes } from '../routes/health';
import { transactionRoutes } from '../routes/transactions';
import type { Upstreams } from '../upstreams/upstreams';
import { dashboard } from './dashboard';
import { requireJsonBody } from './json-body';
import { requestId } from './request-id';

export function buildApp(config: GatewayConfig, logger: Logger, sequelize: Sequelize, upstreams: Upstreams): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestId());
  app.use(
    pinoHttp({
      // API keys and session tokens are secrets: they never reach a log line.
      logger: logger.child({}, { redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } }),
      genReqId: (_req, res) => res.locals.requestId as string,
      customAttributeKeys: { reqId: 'requestId' },
      autoLogging: { ignore: (req) => req.url === '/healthz' },
    }),
  );
  app.use(requireJsonBody());
  app.use(express.json({ limit: config.BODY_LIMIT_BYTES }));

  app.use(healthRoutes(config, sequelize, upstreams));
  app.use(dashboard());
  app.use(authRoutes(config, sequelize));
  app.use(authKeyRoutes(sequelize));
  app.use(authUserRoutes(sequelize));
  app.use(diseaseRoutes(upstreams, sequelize));
  app.use(transactionRoutes(upstreams, sequelize));
  app.use(auditRoutes(upstreams, sequelize));

  app.use(notFoundHandler());
  app.use(problemHandler(logger));
  return app;
}
