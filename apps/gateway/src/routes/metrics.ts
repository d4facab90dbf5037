import { Router } from 'express';
import { metricsRegistry } from '@libs/metrics';

/** GET /metrics: Prometheus text format; public like /healthz (it holds no user data), so keep the port internal. */
export function metricsRoutes(): Router {
  const registry = metricsRegistry();
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
