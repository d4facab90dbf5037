import { parse } from 'yaml';
import { addressVariable, calleesOf, declarationOf, isGateway, mainPortOf, servicesOf, type Topology } from '@libs/topology';

/** What compose runs beside the declared services. */
export const INFRASTRUCTURE = ['postgres', 'broker-definitions', 'rabbitmq'];

/** Those that run once and exit: compose must not start them again. */
export const ONE_SHOT = ['broker-definitions'];

/** The parts of a compose service this project sets. */
interface ComposeService {
  restart?: string;
  build?: { context: string; target?: string };
  ports?: string[];
  image?: string;
  volumes?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

/** docker-compose.yml's services, with the shared environment blocks (`<<: *service-env`) merged in. */
export const composeServices = (text: string): Record<string, ComposeService> =>
  (parse(text, { merge: true }) as { services: Record<string, ComposeService> }).services;

/**
 * Where docker-compose.yml and the declared services disagree, one line each: every declared service built from
 * its own Dockerfile target, with its database, reaching each service it calls at its name and declared gRPC port
 * once that one is healthy; only the gateway publishes a port, its declared HTTP port; nothing undeclared.
 */
export function composeProblems(services: Record<string, ComposeService>, topology: Topology): string[] {
  const problems = Object.keys(services)
    .filter((name) => !INFRASTRUCTURE.includes(name) && !servicesOf(topology).some((service) => service.name === name))
    .map((name) => `${name}: not a declared service`);
  for (const { name } of servicesOf(topology)) {
    const service = services[name];
    if (!service) {
      problems.push(`${name}: missing`);
      continue;
    }
    const problem = (what: string) => problems.push(`${name}: ${what}`);
    const declared = declarationOf(topology, name);
    const environment = service.environment ?? {};
    if (service.build?.target !== name) problem(`built from target ${service.build?.target}, not ${name}`);
    if (!environment.DATABASE_URL?.endsWith(`/${declared.database}`)) problem(`DATABASE_URL is not database ${declared.database}`);
    const callees = calleesOf(topology, name);
    const addresses = Object.keys(environment).filter((variable) => variable.endsWith('_ADDR'));
    for (const variable of addresses.filter((v) => !callees.some((callee) => addressVariable(callee) === v))) {
      problem(`${variable} names a service it does not call`);
    }
    for (const callee of callees) {
      const expected = `${callee}:${mainPortOf(declarationOf(topology, callee))}`;
      if (environment[addressVariable(callee)] !== expected) problem(`${addressVariable(callee)} is not ${expected}`);
      if (service.depends_on?.[callee]?.condition !== 'service_healthy') problem(`does not wait for ${callee} to be healthy`);
    }
    // The container side of each mapping ("3000-3009:3000"): scaled gRPC services must take no fixed host port.
    const published = (service.ports ?? []).map((port) => Number(port.split(':').at(-1))).join(', ') || 'none';
    const expected = isGateway(topology, name) ? String(mainPortOf(declared)) : 'none';
    if (published !== expected) problem(`publishes ports ${published}, not ${expected}`);
  }
  return problems;
}
