import { Router, type RequestHandler } from 'express';
import type { Sequelize } from 'sequelize';
import { HealthProbe } from '@libs/grpc';
import { requireKey } from '../auth/authenticate';
import type { GatewayConfig } from '../config';
import { allUpstreams, type Upstreams } from '../upstreams/upstreams';

const PROBE_TIMEOUT_MS = 1_000;

/**
 * /healthz: the process answers. /readyz: its database and every upstream
 * answer too. Both are public, for probes; /readyz says why it is not ready
 * (each check, each breaker) only to a key with `health:details` (admins),
 * because the reasons name internal hosts and ports.
 */
export function healthRoutes(config: GatewayConfig, sequelize: Sequelize, upstreams: Upstreams): Router {
  const probes = {
    reference: new HealthProbe(config.REFERENCE_ADDR),
    finance: new HealthProbe(config.FINANCE_ADDR),
    audit: new HealthProbe(config.AUDIT_ADDR),
  };
  const router = Router();
  const detailsKey = requireKey(sequelize, 'health:details');
  // No Authorization: a probe, answered with the status. A key asks for the details, and must be an admin's.
  const keyIfGiven: RequestHandler = (req, res, next) =>
    req.get('authorization') === undefined ? next() : detailsKey(req, res, next);

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/readyz', keyIfGiven, async (_req, res) => {
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
    const status = ready ? 'ready' : 'not ready';
    res.status(ready ? 200 : 503).json(res.locals.owner ? { status, checks, breakers } : { status });
  });

  return router;
}
