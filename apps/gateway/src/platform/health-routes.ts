import type { Sequelize } from 'sequelize';
import { addressesOf } from '@libs/config';
import { HealthProbe } from '@libs/grpc';
import { GATEWAY_NAME } from '@libs/topology';
import type { PlatformConfig } from './platform-config';
import { reuseFor } from './http/single-flight';
import { liveness, readinessCheck } from './platform-operations';
import { route, type Route } from './routing/operation';
import { allUpstreams, type Upstreams } from './upstreams/upstreams';

const PROBE_TIMEOUT_MS = 1_000;
// Each round costs a database query and a gRPC call per service: a flood of /readyz must not multiply them.
const CHECKS_REUSED_MS = 1_000;

/**
 * /healthz: the process answers. /readyz: its database and every gRPC service
 * (libs/topology) answer too. Both are public, for probes; /readyz says why it
 * is not ready (each check, each breaker) only to a key with `health:details`
 * (admins), because the reasons name internal hosts and ports. The checks run at
 * most once a second, shared by every request meanwhile; the breakers are read live.
 */
export function healthRoutes(config: PlatformConfig, sequelize: Sequelize, upstreams: Upstreams): Route[] {
  const probes = Object.entries(addressesOf(GATEWAY_NAME, config)).map(([name, address]) => [name, new HealthProbe(address)] as const);
  const checkAll = reuseFor(CHECKS_REUSED_MS, async () => {
    const database = await sequelize
      .query('SELECT 1')
      .then(() => 'SERVING')
      // No driver message here: /readyz is public, and those name hosts and users.
      .catch(() => 'UNREACHABLE');
    const entries = await Promise.all(
      probes.map(async ([name, probe]) => [name, await probe.check(PROBE_TIMEOUT_MS)] as const),
    );
    return { database, ...Object.fromEntries(entries) };
  });

  return [
    route(liveness, (_input, { res }) => {
      res.json({ status: 'ok' });
    }),
    // No Authorization: a probe, answered with the status. A key asks for the details, and must be an admin's.
    route(readinessCheck, async (_input, { res, caller }) => {
      const checks = await checkAll();
      const breakers = Object.fromEntries(allUpstreams(upstreams).map((u) => [u.name, u.state]));
      const ready = Object.values(checks).every((status) => status === 'SERVING');
      const status = ready ? 'ready' : 'not ready';
      res.status(ready ? 200 : 503).json(caller.key ? { status, checks, breakers } : { status });
    }),
  ];
}
