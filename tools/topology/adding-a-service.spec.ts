import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { instanceEnv, POSTGRES_URL } from '@libs/testing';
import { servicesOf, TOPOLOGY, type Placement, type Topology } from '@libs/topology';
import { planStart } from '../dev/services';
import { composeProblems, composeServices } from '../docker/compose';
import { dockerfileStages } from '../kubernetes/dockerfile';
import { renderKustomization } from '../kubernetes/kustomize';
import { serviceSetProblems } from '../kubernetes/service-set';
import { configSchemaOf } from './service-configs';

/*
 * A new service is one entry in libs/topology, then its own code and manifests. Here a throwaway entry,
 * `notifications`, which calls finance: npm start and the test system run and wire it from the entry alone, and the
 * configuration, compose and Kubernetes checks ask for what it does not have yet.
 */
const ROOT = join(__dirname, '..', '..');
const NOTIFICATIONS = { name: 'notifications', grpcPort: 50055, metricsPort: 9469, database: 'notifications', calls: ['finance'] };
const topology: Topology = { ...TOPOLOGY, grpcServices: [...TOPOLOGY.grpcServices, NOTIFICATIONS] };

describe('a service added to the declaration', () => {
  it('is run by npm start on its ports with its database, reaching finance, and the gateway reaches it', () => {
    const plan = planStart({}, topology);
    expect(plan.grpcServices.find((service) => service.name === 'notifications')).toEqual({
      name: 'notifications',
      address: '127.0.0.1:50055',
      env: {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/notifications',
        GRPC_PORT: '50055',
        METRICS_PORT: '9469',
        FINANCE_ADDR: '127.0.0.1:50052',
      },
    });
    expect(plan.gateway.env.NOTIFICATIONS_ADDR).toBe('127.0.0.1:50055');
    // Its ports move aside with START_* like every other service's.
    expect(planStart({ START_NOTIFICATIONS_GRPC_PORT: '50155' }, topology).gateway.env.NOTIFICATIONS_ADDR).toBe('127.0.0.1:50155');
  });

  it("is wired by the test system to the run's database and ports, the gateway reaching each of its instances", () => {
    const ports: Record<string, Placement['ports'][]> = Object.fromEntries(
      servicesOf(topology).map(({ name }, i) => [name, [{ main: 20_000 + 10 * i, metrics: 20_001 + 10 * i }]]),
    );
    ports.notifications.push({ main: 21_000, metrics: 21_001 });
    const run = { namespace: 'run', ports };
    expect(instanceEnv(topology, run, 'notifications', 2)).toEqual(
      expect.objectContaining({
        DATABASE_URL: `${POSTGRES_URL}/run_notifications`,
        AMQP_NAMESPACE: 'run.',
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: '21000',
        METRICS_PORT: '21001',
        FINANCE_ADDR: `127.0.0.1:${ports.finance[0].main}`,
      }),
    );
    expect(instanceEnv(topology, run, 'gateway').NOTIFICATIONS_ADDR).toBe(`ipv4:127.0.0.1:${ports.notifications[0].main},127.0.0.1:21000`);
  });

  it('makes the configuration check ask for its configuration schema', () => {
    expect(() => configSchemaOf('notifications')).toThrow('notifications is declared, but apps/notifications/src/config.ts is missing');
  });

  it('makes the compose check ask for its service, and for the gateway to reach it', () => {
    const compose = composeServices(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
    expect(composeProblems(compose, topology)).toEqual([
      'gateway: NOTIFICATIONS_ADDR is not notifications:50055',
      'gateway: does not wait for notifications to be healthy',
      'notifications: missing',
    ]);
  });

  it('makes the Kubernetes check ask for its objects and its Dockerfile target', () => {
    const stages = [...dockerfileStages(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).keys()];
    expect(serviceSetProblems(topology, renderKustomization(join(ROOT, 'deploy', 'kubernetes', 'base')), stages)).toEqual([
      'notifications: 0 Deployment objects, not 1',
      'notifications: 0 Service objects, not 1',
      'notifications: 0 PodDisruptionBudget objects, not 1',
      'notifications: 0 NetworkPolicy objects, not 1',
      'notifications: no Dockerfile target',
    ]);
  });
});
