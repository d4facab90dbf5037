import { servicesOf, type Topology } from '@libs/topology';
import type { Manifest } from './kustomize';

/** What every service has in the base: a Deployment, its Service, a disruption budget and a network policy. */
const OBJECTS_PER_SERVICE = ['Deployment', 'Service', 'PodDisruptionBudget', 'NetworkPolicy'];
/** The Dockerfile's stages that build no service's image. */
const SHARED_STAGES = ['build', 'runtime'];

/**
 * Where the rendered manifests and the Dockerfile's targets disagree with the declared services, one line each:
 * every declared service has each of its objects once and a Dockerfile target, and nothing undeclared has either.
 */
export function serviceSetProblems(topology: Topology, manifests: Manifest[], dockerfileStages: string[]): string[] {
  const declared = servicesOf(topology).map((service) => service.name);
  const count = (kind: string, name: string) => manifests.filter((m) => m.kind === kind && m.metadata.name === name).length;
  return [
    ...declared.flatMap((name) =>
      OBJECTS_PER_SERVICE.filter((kind) => count(kind, name) !== 1).map((kind) => `${name}: ${count(kind, name)} ${kind} objects, not 1`),
    ),
    ...declared.filter((name) => !dockerfileStages.includes(name)).map((name) => `${name}: no Dockerfile target`),
    ...manifests
      .filter((m) => m.kind === 'Deployment' && !declared.includes(m.metadata.name))
      .map((m) => `${m.metadata.name}: a Deployment of no declared service`),
    ...dockerfileStages
      .filter((stage) => !SHARED_STAGES.includes(stage) && !declared.includes(stage))
      .map((stage) => `${stage}: a Dockerfile target of no declared service`),
  ];
}
