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
 * `reminders`, which calls finance: npm start and the test system run and wire it from the entry alone, and the
 * configuration, compose and Kubernetes checks ask for what it does not have yet.
 */
const ROOT = join(__dirname, '..', '..');
const REMINDERS = { name: 'reminders', grpcPort: 50056, metricsPort: 9470, database: 'reminders', calls: ['finance'] };
const topology: Topology = { ...TOPOLOGY, grpcServices: [...TOPOLOGY.grpcServices, REMINDERS] };

describe('a service added to the declaration', () => {
  it('is run by npm start on its ports with its database, reaching finance, and the gateway reaches it', () => {
    const plan = planStart({}, topology);
    expect(plan.grpcServices.find((service) => service.name === 'reminders')).toEqual({
      name: 'reminders',
      address: '127.0.0.1:50056',
      env: {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/reminders',
        GRPC_PORT: '50056',
        METRICS_PORT: '9470',
        FINANCE_ADDR: '127.0.0.1:50052',
        // npm start points every service at its mail catcher (tools/dev/services.ts).
        SMTP_URL: 'smtp://127.0.0.1:1025',
      },
    });
    expect(plan.gateway.env.REMINDERS_ADDR).toBe('127.0.0.1:50056');
    // Its ports move aside with START_* like every other service's.
    expect(planStart({ START_REMINDERS_GRPC_PORT: '50156' }, topology).gateway.env.REMINDERS_ADDR).toBe('127.0.0.1:50156');
  });

  it("is wired by the test system to the run's database and ports, the gateway reaching each of its instances", () => {
    const ports: Record<string, Placement['ports'][]> = Object.fromEntries(
      servicesOf(topology).map(({ name }, i) => [name, [{ main: 20_000 + 10 * i, metrics: 20_001 + 10 * i }]]),
    );
    ports.reminders.push({ main: 21_000, metrics: 21_001 });
    const run = { namespace: 'run', ports };
    expect(instanceEnv(topology, run, 'reminders', 2)).toEqual(
      expect.objectContaining({
        DATABASE_URL: `${POSTGRES_URL}/run_reminders`,
        AMQP_NAMESPACE: 'run.',
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: '21000',
        METRICS_PORT: '21001',
        FINANCE_ADDR: `127.0.0.1:${ports.finance[0].main}`,
      }),
    );
    expect(instanceEnv(topology, run, 'gateway').REMINDERS_ADDR).toBe(`ipv4:127.0.0.1:${ports.reminders[0].main},127.0.0.1:21000`);
  });

  it('makes the configuration check ask for its configuration schema', () => {
    expect(() => configSchemaOf('reminders')).toThrow('reminders is declared, but apps/reminders/src/config.ts is missing');
  });

  it('makes the compose check ask for its service, and for the gateway to reach it', () => {
    const compose = composeServices(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
    expect(composeProblems(compose, topology)).toEqual([
      'gateway: REMINDERS_ADDR is not reminders:50056',
      'gateway: does not wait for reminders to be healthy',
      'reminders: missing',
    ]);
  });

  it('makes the Kubernetes check ask for its objects and its Dockerfile target', () => {
    const stages = [...dockerfileStages(readFileSync(join(ROOT, 'Dockerfile'), 'utf8')).keys()];
    expect(serviceSetProblems(topology, renderKustomization(join(ROOT, 'deploy', 'kubernetes', 'base')), stages)).toEqual([
      'reminders: 0 Deployment objects, not 1',
      'reminders: 0 Service objects, not 1',
      'reminders: 0 PodDisruptionBudget objects, not 1',
      'reminders: 0 NetworkPolicy objects, not 1',
      'reminders: no Dockerfile target',
    ]);
  });
});
