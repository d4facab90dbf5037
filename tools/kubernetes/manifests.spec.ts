import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import type { z } from 'zod';
import { parseConfig } from '@libs/config';
import { keyPairOf } from '@libs/signing';
import { SERVICE_ENV, SERVICE_NODE_FLAGS, SHUTDOWN_MARGIN_MS } from '@libs/lifecycle';
import { addressVariable, callersOf, declarationOf, GRPC_SERVICE_NAMES, isGateway, mainPortOf, SERVICE_NAMES, TOPOLOGY } from '@libs/topology';
import { configSchemaOf } from '../topology/service-configs';
import { dockerfileStages } from './dockerfile';
import { schemaErrors, unknownFields } from './kubernetes-schemas';
import { renderKustomization, type Manifest } from './kustomize';
import { mebibytes } from './quantity';
import { serviceSetProblems } from './service-set';

const ROOT = join(__dirname, '..', '..');
const KUBERNETES = join(ROOT, 'deploy', 'kubernetes');

/** The services whose number of replicas follows their load. */
const AUTOSCALED = ['gateway', 'reference'];

const renderings: Record<string, Manifest[]> = {
  base: renderKustomization(join(KUBERNETES, 'base')),
  'overlays/example': renderKustomization(join(KUBERNETES, 'overlays', 'example')),
};
const example = renderings['overlays/example'];
const stages = dockerfileStages(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const peakRssMb = (JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'latest-full.json'), 'utf8')) as { peakRssMb: Record<string, number> })
  .peakRssMb;
const id = (manifest: Manifest) => `${manifest.kind} ${manifest.metadata.name}`;
function only<T>(manifests: Manifest[], kind: string, name: string): T {
  const found = manifests.filter((m) => m.kind === kind && m.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
  return found[0] as unknown as T;
}
const ofKind = <T>(manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind) as unknown as (T & Manifest)[];
const containerOf = (deployment: IDeployment): IContainer => {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  if (containers.length !== 1) throw new Error(`expected one container in ${deployment.metadata?.name}, found ${containers.length}`);
  return containers[0];
};
const podLabels = (deployment: IDeployment) => deployment.spec?.template.metadata?.labels ?? {};
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);
const portNumber = (container: IContainer, port: number | string | undefined) =>
  typeof port === 'number' ? port : container.ports?.find((p) => p.name === port)?.containerPort;

/** What stands in for a trusted public key (env.trustedKeys) set from a Secret: any key but the development one. */
const STAND_IN_KEY = keyPairOf('a stand-in for the deployment\'s own key').publicKey.x;

/**
 * The values a container's environment sets: literal ones as written, and a secret (one with a development value)
 * or a list of trusted keys from a Secret as a stand-in: its own example when it has one, else a phrase or
 * STAND_IN_KEY (its value is not here; that one is set is what the configuration checks). Other values from Secrets
 * (a database URL) are left out: the service's default stands for them.
 */
function containerEnv(container: IContainer, schema: z.ZodObject): Record<string, string> {
  const standIn = (name: string, secret: string): string | undefined => {
    const meta = (schema.shape[name] as z.ZodType | undefined)?.meta();
    const example = (meta?.examples as unknown[] | undefined)?.[0];
    if (example !== undefined) return String(example);
    if (meta?.developmentValue !== undefined) return `a secret from the Secret ${secret}`;
    return meta?.developmentEntries !== undefined ? STAND_IN_KEY : undefined;
  };
  return Object.fromEntries(
    (container.env ?? []).flatMap((v) => {
      if (v.value !== undefined) return [[v.name, v.value]];
      const ref = v.valueFrom?.secretKeyRef;
      const value = ref && standIn(v.name, ref.name ?? '');
      return value === undefined ? [] : [[v.name, value]];
    }),
  );
}
/** The configuration a service runs with: its defaults, overridden by the manifest's values. */
function effectiveConfig(manifests: Manifest[], service: string): Record<string, unknown> {
  const schema = configSchemaOf(service);
  return parseConfig(schema, containerEnv(containerOf(only(manifests, 'Deployment', service)), schema)) as Record<string, unknown>;
}

describe.each(Object.entries(renderings))('deploy/kubernetes/%s', (_name, manifests) => {
  it('has the objects and the Dockerfile target of every declared service, and of nothing else', () => {
    expect(serviceSetProblems(TOPOLOGY, manifests, [...stages.keys()])).toEqual([]);
  });

  it('is valid against the Kubernetes schemas', () => {
    expect(manifests.map((m) => [id(m), schemaErrors(m)]).filter(([, errors]) => errors.length > 0)).toEqual([]);
  });

  it('uses no field its kind does not have', () => {
    expect(manifests.map((m) => [id(m), unknownFields(m)]).filter(([, fields]) => fields.length > 0)).toEqual([]);
  });

  it("has Services, disruption budgets and network policies that select one Deployment's pods, by ports they have", () => {
    const deployments = ofKind<IDeployment>(manifests, 'Deployment');
    const problems: string[] = [];
    const check = (owner: string, selector: Record<string, string> | undefined, ports: (number | string | undefined)[]) => {
      const matching = deployments.filter((d) => selects(selector, podLabels(d)));
      if (matching.length !== 1) problems.push(`${owner} selects ${matching.length} Deployments`);
      for (const port of matching.length === 1 ? ports : []) {
        if (portNumber(containerOf(matching[0]), port) === undefined) problems.push(`${owner}: no container port ${port}`);
      }
    };
    for (const s of ofKind<IService>(manifests, 'Service')) check(id(s), s.spec?.selector, (s.spec?.ports ?? []).map((p) => p.targetPort));
    for (const b of ofKind<IPodDisruptionBudget>(manifests, 'PodDisruptionBudget')) check(id(b), b.spec?.selector?.matchLabels, []);
    for (const n of ofKind<INetworkPolicy>(manifests, 'NetworkPolicy')) {
      check(id(n), n.spec?.podSelector.matchLabels, (n.spec?.ingress ?? []).flatMap((rule) => (rule.ports ?? []).map((p) => p.port)));
    }
    expect(problems).toEqual([]);
  });

  it('autoscales the gateway and reference, whose Deployments leave their replica count to the autoscaler', () => {
    const autoscalers = ofKind<IHorizontalPodAutoscaler>(manifests, 'HorizontalPodAutoscaler');
    expect(autoscalers.map((a) => a.spec?.scaleTargetRef.name).sort()).toEqual([...AUTOSCALED].sort());
    for (const autoscaler of autoscalers) {
      const target = only<IDeployment>(manifests, autoscaler.spec?.scaleTargetRef.kind ?? '', autoscaler.spec?.scaleTargetRef.name ?? '');
      expect(target.spec?.replicas).toBeUndefined();
      expect(autoscaler.spec?.minReplicas).toBeGreaterThanOrEqual(2);
      // CPU utilisation is a share of the request: without one the autoscaler cannot act.
      expect(containerOf(target).resources?.requests?.cpu).toBeDefined();
    }
    for (const deployment of ofKind<IDeployment>(manifests, 'Deployment').filter((d) => !AUTOSCALED.includes(d.metadata.name))) {
      expect([deployment.metadata.name, deployment.spec?.replicas]).toEqual([deployment.metadata.name, 2]);
    }
  });

  describe.each(SERVICE_NAMES)('%s', (service) => {
    const deployment = only<IDeployment>(manifests, 'Deployment', service);
    const container = containerOf(deployment);
    // Parsed in each test, so that a value the service refuses fails the test that says so.
    const configOf = () => effectiveConfig(manifests, service);
    const grpc = !isGateway(TOPOLOGY, service);
    const declared = declarationOf(TOPOLOGY, service);

    it('has a Service, a disruption budget and a network policy', () => {
      const kubernetesService = only<IService>(manifests, 'Service', service);
      // The gRPC services are headless, so that the gateway's round-robin client sees every pod.
      expect(kubernetesService.spec?.clusterIP).toBe(grpc ? 'None' : undefined);
      expect(only<IPodDisruptionBudget>(manifests, 'PodDisruptionBudget', service).spec?.maxUnavailable).toBe(1);
      only<INetworkPolicy>(manifests, 'NetworkPolicy', service);
    });

    it('sets only variables its configuration schema reads, to values it accepts', () => {
      const names = (container.env ?? []).map((v) => v.name);
      expect(names.filter((name) => !(name in configSchemaOf(service).shape))).toEqual([]);
      expect(new Set(names).size).toBe(names.length);
      expect(container.envFrom).toBeUndefined();
      // parseConfig throws, naming the variable, on a value the service would refuse at start.
      expect(configOf).not.toThrow();
    });

    it("runs its Dockerfile target's image as built, on its declared ports, where the service listens", () => {
      const config = configOf();
      // clinical-finance/<target> as built, under whichever registry and tag an overlay gives it.
      expect(container.image).toMatch(new RegExp(`^([\\w.:-]+/)*clinical-finance/${service}(:[\\w.-]+|@sha256:[0-9a-f]{64})?$`));
      // The image's CMD carries the node flags (heap cap) that the memory figures below were measured with.
      expect(container.command).toBeUndefined();
      expect(container.args).toBeUndefined();
      const ports = Object.fromEntries((container.ports ?? []).map((p) => [p.name, p.containerPort]));
      const listening = grpc ? { grpc: config.GRPC_PORT, metrics: config.METRICS_PORT } : { http: config.PORT, metrics: config.METRICS_PORT };
      expect(ports).toEqual(listening);
      expect(Object.values(listening)).toEqual([mainPortOf(declared), declared.metricsPort]);
      expect(stages.get(service)?.expose.sort()).toEqual(Object.values(listening).sort());
      // The image runs the service as tests and `npm start` do: the same node flags and environment.
      expect(stages.get(service)?.cmd).toEqual(['node', ...SERVICE_NODE_FLAGS, `dist/apps/${service}/main.cjs`]);
      expect(stages.get(service)?.env).toMatchObject(SERVICE_ENV);
      expect(deployment.spec?.template.metadata?.annotations?.['prometheus.io/port']).toBe(String(config.METRICS_PORT));
      // Every port must be reachable from the pod network, not only on loopback.
      const hosts = grpc ? [config.GRPC_HOST, config.METRICS_HOST] : [config.HOST, config.METRICS_HOST];
      expect(hosts).toEqual(hosts.map(() => '0.0.0.0'));
    });

    it('is probed where the service answers', () => {
      const config = configOf();
      const probe = (p: IProbe | undefined) => (p?.grpc ? { grpc: p.grpc.port } : { path: p?.httpGet?.path, port: portNumber(container, p?.httpGet?.port) });
      const probes = [container.startupProbe, container.readinessProbe, container.livenessProbe].map(probe);
      if (grpc) {
        // grpc.health.v1.Health, which every gRPC service serves (libs/grpc).
        expect(probes).toEqual(Array(3).fill({ grpc: config.GRPC_PORT }));
      } else {
        // Traffic once /readyz says the database and every upstream answer; after that, the process itself.
        expect(probes).toEqual([
          { path: '/readyz', port: config.PORT },
          { path: '/healthz', port: config.PORT },
          { path: '/healthz', port: config.PORT },
        ]);
      }
      // Liveness must not restart a process that is only busy: more lenient than readiness.
      const patience = (p: IProbe | undefined) => (p?.periodSeconds ?? 10) * (p?.failureThreshold ?? 3);
      expect(patience(container.livenessProbe)).toBeGreaterThan(patience(container.readinessProbe));
    });

    it('requests the memory the benchmark measured, and is limited with room above it', () => {
      const yaml = readFileSync(join(KUBERNETES, 'base', service, 'deployment.yaml'), 'utf8');
      // A service newer than the last full benchmark borrows the measured figures of the service it names, and
      // says so; the next full run measures it, and from then on its own figure holds it.
      const borrowed = peakRssMb[service] === undefined ? /not measured by a full benchmark yet[^]*?(\w+)'s figures/.exec(yaml)?.[1] : undefined;
      const measured = borrowed ?? service;
      const peak = peakRssMb[measured];
      expect(peak).toEqual(expect.any(Number));
      const request = mebibytes(container.resources?.requests?.memory);
      const limit = mebibytes(container.resources?.limits?.memory);
      expect(request).toBeGreaterThanOrEqual(peak);
      expect(limit).toBeGreaterThanOrEqual(peak * 1.25);
      // The comment beside the figures names the figure they were chosen from.
      if (!borrowed) expect(yaml).toContain(`peak RSS ${peak.toFixed(1)} MiB`);
      expect(yaml).toContain(`peakRssMb.${service}`);
    });

    it('has time to drain its calls before it is killed', () => {
      const config = configOf();
      const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
      const sleepMs = preStop[0] === 'sleep' ? Number(preStop[1]) * 1000 : 0;
      expect((deployment.spec?.template.spec?.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThanOrEqual(
        sleepMs + Number(config.SHUTDOWN_GRACE_MS) + SHUTDOWN_MARGIN_MS,
      );
    });
  });

  describe('the callers of the gRPC services', () => {
    const calls = GRPC_SERVICE_NAMES.flatMap((service) => callersOf(TOPOLOGY, service).map((caller) => [caller, service]));

    it.each(calls)('%s reaches %s through its headless Service, on its gRPC port', (caller, service) => {
      const address = String(effectiveConfig(manifests, caller)[addressVariable(service)]);
      const kubernetesService = only<IService>(manifests, 'Service', service);
      expect(address).toBe(`${service}:${kubernetesService.spec?.ports?.find((p) => p.name === 'grpc')?.port}`);
      expect(kubernetesService.spec?.ports?.find((p) => p.name === 'grpc')?.port).toBe(effectiveConfig(manifests, service).GRPC_PORT);
    });

    it.each(GRPC_SERVICE_NAMES)('are the only pods the network policy lets reach the gRPC port of %s', (service) => {
      const policy = only<INetworkPolicy>(manifests, 'NetworkPolicy', service);
      const grpcRules = (policy.spec?.ingress ?? []).filter((rule) => rule.ports?.some((p) => p.port === 'grpc'));
      expect(grpcRules.map((rule) => rule.from)).toEqual([
        callersOf(TOPOLOGY, service).map((caller) => ({ podSelector: { matchLabels: { 'app.kubernetes.io/name': caller } } })),
      ]);
    });
  });
});

describe('the example overlay', () => {
  const secrets = ofKind<ISecret>(example, 'Secret');
  const decoded = (secret: ISecret) =>
    Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));

  it.each(SERVICE_NAMES)('has every Secret key that %s requires', (service) => {
    const container = containerOf(only(example, 'Deployment', service));
    const missing = (container.env ?? [])
      .map((v) => v.valueFrom?.secretKeyRef)
      .filter((ref) => ref !== undefined && !ref.optional)
      .filter((ref) => !(ref?.key && ref.key in decoded(only<ISecret>(example, 'Secret', ref.name ?? ''))));
    expect(missing).toEqual([]);
  });

  it('ships no usable secret: every secret and password is empty, and every password in a URL a placeholder', () => {
    const values = secrets.flatMap((secret) => Object.entries(decoded(secret)));
    expect(values.filter(([key, value]) => /SECRET|PASSWORD/.test(key) && value !== '')).toEqual([]);
    expect(values.filter(([key, value]) => key.endsWith('_URL') && !value.includes(':CHANGE-ME@'))).toEqual([]);
  });

  it('runs every service from the registry it names, in its namespace', () => {
    expect(example.map((m) => m.metadata.namespace)).toEqual(example.map(() => 'clinical-finance'));
    for (const service of SERVICE_NAMES) {
      expect(containerOf(only(example, 'Deployment', service)).image).toBe(`registry.example.com/clinical-finance/${service}:0.1.0`);
    }
  });
});
