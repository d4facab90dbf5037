import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { HealthProbe } from '@libs/grpc';
import type { GatewayConfig } from '../config';
import { allUpstreams, type Upstreams } from '../upstreams/upstreams';

const PROBE_TIMEOUT_MS = 1_000;

/** /healthz: the process answers. /readyz: its database and every upstream answer too. */
export function healthRoutes(config: GatewayConfig, sequelize: Sequelize, upstreams: Upstreams): Router {
  const probes = {
    reference: new HealthProbe(config.REFERENCE_ADDR),
    finance: new HealthProbe(config.FINANCE_ADDR),
    audit: new HealthProbe(config.AUDIT_ADDR),
  };
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    const database = await sequelize
      .query('SELECT 1')
      .then(() => 'SERVING')
      // No driver message here: /readyz is public, and those name hosts and users.
      .catch(() => 'UNREACHABLE');
    const entries = await Promise.all(
      Object.entries(probes).map(async ([name, probe]) => [name, await probe.check(PROBE_TIMEOUT_MS)] as const),
    );
    const checks = { database, ...Object.fromEntries(entries) };
    const breakers = Object.fromEntries(allUpstreams(upstreams).map((u) => [u.name, u.state]));
    const ready = Object.values(checks).every((status) => status === 'SERVING');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks, breakers });
  });

  return router;
}
