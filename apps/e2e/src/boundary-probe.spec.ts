import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { startSystem, type RunningSystem } from '@libs/testing';
import { boundaryValues, typedValue, type ParameterSchema } from './boundary-values';

/**
 * The document states every rule the gateway applies to a parameter: for every parameter of every operation
 * of /openapi.json, values at and just past the edges of its schema (boundary-values.ts) are sent to a running
 * gateway. A value the document's schema allows (as ajv reads it) is never refused for that parameter, so a
 * client or fuzzer generated from the document cannot build a request the gateway refuses for it; a value the
 * schema refuses is a 400 naming the parameter. Both sides come from one declaration (the zod schemas under
 * apps/gateway/src and libs/contracts, whose limits are in limits.ts): this test is what shows they agree.
 */

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: ParameterSchema;
}
interface Operation {
  parameters?: Parameter[];
}
interface Probe {
  path: string;
  method: string;
  operation: Operation;
  parameter: Parameter;
  value: string;
  allowed: boolean;
}

/**
 * Parameters whose valid values the document cannot list, probed only with values it refuses: a cursor is
 * one the service signed, and a zone must be one the time zone database holds (its example is).
 */
const BEYOND_THE_DOCUMENT: Record<string, (value: string) => boolean> = {
  cursor: () => false,
  timeZone: (value) => value === 'Europe/London',
};

// eslint-disable-next-line no-control-regex
const HEADER_TEXT = /^[^\u0000-\u0008\u000a-\u001f\u007f\u0100-\uffff]*$/;

/** A plausible value for a parameter the probe does not vary: ids that name nothing, the first enum value. */
function filler(parameter: Parameter): string {
  if (parameter.in === 'path') return parameter.name === 'id' ? '00000000-0000-4000-8000-000000000000' : '1';
  if (Array.isArray(parameter.schema.enum)) return String(parameter.schema.enum[0]);
  // As short as the document allows (type-ahead's q needs two characters).
  return 'a'.repeat(Math.max(1, Number(parameter.schema.minLength ?? 1)));
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

describe('the boundary probe: the document states every rule the gateway applies to a parameter', () => {
  let system: RunningSystem;
  let document: { paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    system = await startSystem();
    document = (await (await fetch(`${system.gatewayUrl}/openapi.json`)).json()) as typeof document;
  }, 90_000);
  afterAll(() => system?.shutdown());

  /** The probes of every parameter of every operation, each labelled by the document's schema. */
  function probes(): Probe[] {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    return Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        (operation.parameters ?? []).flatMap((parameter) => {
          const allows = ajv.compile(parameter.schema);
          return (
            boundaryValues(parameter.schema)
              // A path segment is never empty: the request would be another operation's.
              .filter((value) => !(parameter.in === 'path' && value === ''))
              .map((value) => ({ path, method, operation, parameter, value, allowed: allows(typedValue(parameter.schema, value)) }))
          );
        }),
      ),
    );
  }

  /** Sends one value of one parameter; the others are left out, or filled in when required. */
  async function send({ path, method, operation, parameter: probed, value }: Probe) {
    const url = new URL(
      path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
        return encodeURIComponent(parameter === probed ? value : filler(parameter ?? ({ in: 'path', name } as Parameter)));
      }),
      system.gatewayUrl,
    );
    const headers: Record<string, string> = { authorization: `Bearer ${system.keys.admin}` };
    for (const parameter of operation.parameters ?? []) {
      const given = parameter === probed ? value : parameter.required && parameter.in !== 'path' ? filler(parameter) : undefined;
      if (given === undefined) continue;
      if (parameter.in === 'query') url.searchParams.set(parameter.name, given);
      if (parameter.in === 'header') headers[parameter.name] = given;
    }
    const response = await fetch(url, { method: method.toUpperCase(), headers });
    // A problem names a parameter in `errors[].field`; an OperationOutcome (FHIR-only operations) in `issue[].expression`.
    const body = (await response.json().catch(() => undefined)) as
      | { errors?: { field: string; message: string }[]; issue?: { expression?: string[]; diagnostics?: string }[] }
      | undefined;
    const named = [
      ...(body?.errors ?? []).filter((error) => error.field === probed.name),
      ...(body?.issue ?? []).filter((issue) => issue.expression?.includes(probed.name)),
    ];
    return { status: response.status, named };
  }

  it('probes every parameter of every operation, with values on both sides of the document', () => {
    const all = probes();
    const parameters = Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.parameters ?? []));
    expect(new Set(all.map((probe) => probe.parameter)).size).toBe(parameters.length);
    expect(all.filter((probe) => probe.allowed).length).toBeGreaterThan(200);
    expect(all.filter((probe) => !probe.allowed).length).toBeGreaterThan(200);
  });

  it('never refuses a value the document allows, and refuses one it does not with a 400 naming the parameter', async () => {
    const disagreements: string[] = [];
    await inParallel(probes(), 8, async (probe) => {
      const { method, path, parameter, value, allowed } = probe;
      const beyond = BEYOND_THE_DOCUMENT[parameter.name];
      if (allowed && beyond && !beyond(value)) return;
      // Text that no client can put in a header (a control character, a character past Latin-1) is no request.
      if (parameter.in === 'header' && !HEADER_TEXT.test(value)) return;
      const answer = await send(probe);
      const where = `${method.toUpperCase()} ${path} ${parameter.in} ${parameter.name}=${JSON.stringify(value.slice(0, 40))}`;
      // Other parameters may still be refused (an operation that takes a body gets none here; one that needs
      // one of two filters gets neither): what counts is whether the probed one is.
      if (allowed && answer.named.length > 0) disagreements.push(`${where} (allowed) → ${answer.status} ${JSON.stringify(answer.named)}`);
      if (!allowed && (answer.status !== 400 || answer.named.length === 0)) {
        disagreements.push(`${where} (refused by the document) → ${answer.status}, not a 400 naming it`);
      }
    });
    expect(disagreements.sort()).toEqual([]);
  }, 300_000);
});
