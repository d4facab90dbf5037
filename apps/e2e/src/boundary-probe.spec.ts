import { startSystem, type RunningSystem } from '@libs/testing';

/**
 * Validation and the document agree: for every parameter that /openapi.json
 * bounds (minimum, maximum, minLength, maxLength, enum, or a boolean), the
 * running gateway accepts the value just inside the bound and refuses the
 * value just outside it with a 400 naming the parameter. Both come from one
 * declaration (apps/gateway/src/platform/routing), so a bound changed in one
 * place cannot leave the other behind; this test is what shows it.
 */

type Schema = {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  enum?: unknown[];
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: unknown;
}
interface Probe {
  operation: string;
  parameter: string;
  inside: string;
  outside: string;
}

/**
 * Parameters whose valid values have a shape beyond their bound: a cursor is one a service signed, `after` is
 * an email, `from` and `to` are dates or instants, a location a premise id, a zone an IANA name. Just inside the
 * bound they pass the gateway's length check, and may then be refused for their shape; what must not happen is
 * the refusal the value just outside gets.
 */
const SHAPED = new Set(['cursor', 'after', 'from', 'to', 'location', 'locationId', 'premiseId', 'localDate', 'timeZone']);

const bounded = (schema: Schema) =>
  schema.minimum !== undefined ||
  schema.maximum !== undefined ||
  schema.minLength !== undefined ||
  schema.maxLength !== undefined ||
  Array.isArray(schema.enum) ||
  schema.type === 'boolean';

/** Text of a given length that is also a list of one short term (`a,a,a`), as list parameters take it. */
const textOf = (length: number) => 'a,'.repeat(length).slice(0, length);

/** The values just inside and just outside each bound of a parameter. */
function probesOf(schema: Schema): { inside: string; outside: string }[] {
  const probes: { inside: string; outside: string }[] = [];
  if (schema.minimum !== undefined) probes.push({ inside: String(schema.minimum), outside: String(schema.minimum - 1) });
  if (schema.maximum !== undefined) probes.push({ inside: String(schema.maximum), outside: String(schema.maximum + 1) });
  if (schema.minLength !== undefined) probes.push({ inside: textOf(schema.minLength), outside: textOf(schema.minLength - 1) });
  if (schema.maxLength !== undefined) probes.push({ inside: textOf(schema.maxLength), outside: textOf(schema.maxLength + 1) });
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum) probes.push({ inside: String(value), outside: `${String(value)}x` });
  }
  if (schema.type === 'boolean') probes.push({ inside: 'false', outside: 'no' }, { inside: 'true', outside: 'TRUE' });
  return probes;
}

/** A plausible value for a parameter the probe does not vary: ids that name nothing, the first enum value. */
function filler(parameter: Parameter): string {
  if (parameter.in === 'path') return parameter.name === 'id' ? '00000000-0000-4000-8000-000000000000' : 'x';
  if (Array.isArray(parameter.schema.enum)) return String(parameter.schema.enum[0]);
  return 'a';
}

describe('the boundary probe: every documented bound is the one the gateway enforces', () => {
  let system: RunningSystem;
  let document: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    system = await startSystem();
    document = (await (await fetch(`${system.gatewayUrl}/openapi.json`)).json()) as typeof document;
  }, 90_000);
  afterAll(() => system?.shutdown());

  /** Sends one probe value for one parameter; the others are left out, or filled in when required. */
  async function send(path: string, method: string, operation: Operation, probed: Parameter, value: string) {
    const url = new URL(path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
      return encodeURIComponent(parameter === probed ? value : filler(parameter ?? ({ in: 'path', name } as Parameter)));
    }), system.gatewayUrl);
    const headers: Record<string, string> = { authorization: `Bearer ${system.keys.admin}` };
    for (const parameter of operation.parameters ?? []) {
      const given = parameter === probed ? value : parameter.required && parameter.in !== 'path' ? filler(parameter) : undefined;
      if (given === undefined) continue;
      if (parameter.in === 'query') url.searchParams.set(parameter.name, given);
      if (parameter.in === 'header') headers[parameter.name] = given;
    }
    const response = await fetch(url, { method: method.toUpperCase(), headers });
    const body = (await response.json().catch(() => undefined)) as { errors?: { field: string; message: string }[] } | undefined;
    return { status: response.status, errors: body?.errors ?? [] };
  }

  it('finds bounded parameters to probe in every area', () => {
    const probed = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.values(item).flatMap((operation) => (operation.parameters ?? []).filter((p) => bounded(p.schema)).map(() => path)),
    );
    for (const area of ['/api/v1/diseases', '/api/v1/labs', '/api/v1/transactions', '/api/v1/audit', '/api/v1/auth/users']) {
      expect(probed).toContain(area);
    }
  });

  it('accepts the value just inside each bound and refuses the value just outside with a 400 naming the parameter', async () => {
    const probes: (Probe & { path: string; method: string; operationObject: Operation; parameterObject: Parameter })[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const parameter of (operation.parameters ?? []).filter((p) => bounded(p.schema))) {
          for (const { inside, outside } of probesOf(parameter.schema)) {
            probes.push({
              operation: `${method.toUpperCase()} ${path}`,
              parameter: parameter.name,
              inside,
              outside,
              path,
              method,
              operationObject: operation,
              parameterObject: parameter,
            });
          }
        }
      }
    }
    expect(probes.length).toBeGreaterThan(50);

    const disagreements: string[] = [];
    for (const probe of probes) {
      const { path, method, operationObject: operation, parameterObject: parameter } = probe;
      const where = `${probe.operation} ${parameter.in} ${parameter.name}`;
      const outside = await send(path, method, operation, parameter, probe.outside);
      const refusal = outside.errors.find((error) => error.field === parameter.name);
      if (outside.status !== 400 || !refusal) {
        disagreements.push(`${where}=${probe.outside.slice(0, 20)} (just outside) → ${outside.status}, not a 400 naming it`);
        continue;
      }
      const inside = await send(path, method, operation, parameter, probe.inside);
      const named = inside.errors.filter((error) => error.field === parameter.name);
      // Other parameters may still be refused (an operation that takes a body gets none here; one that needs one
      // of two filters gets neither): what must not happen is a refusal of the probed one.
      const refusedInside = SHAPED.has(parameter.name) ? named.some((error) => error.message === refusal.message) : named.length > 0;
      if (refusedInside) {
        disagreements.push(`${where}=${probe.inside.slice(0, 20)} (just inside) → ${inside.status} ${JSON.stringify(named)}`);
      }
    }
    expect(disagreements).toEqual([]);
  }, 300_000);
});
