import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import fc from 'fast-check';
import { DEMO_USER_IDS, ROLES } from '@libs/contracts';
import { GATEWAY_ACTOR, HealthProbe, METADATA, outgoingMetadata } from '@libs/grpc';
import { actingAs, startSystem, type RunningSystem } from '@libs/testing';
import { GRPC_SERVICE_NAMES, type GrpcServiceName } from '@libs/topology';
import { contractRpcs, type Rpc, type Shape } from './grpc-request-shapes';
import { hostileHeaderValue, hostileString } from './hostile-values';

/** Calls per RPC; every RPC of every service is walked, so the whole run makes about 40 times this many. */
const RUNS_PER_RPC = Number(process.env.HOSTILE_RUNS_PER_RPC ?? 30);

/** Values that pass the first checks (ids of the demo records, dates, names), so the other fields reach further. */
const PLAUSIBLE = [
  '1', '42', 'asthma', 'a', '2026-09-01', 'pending', 'approved', 'rejected', 'transaction',
  // Short enough to pass every length check and reach the database, which refuses a NUL in any text.
  'asth\u0000ma',
  ...Object.values(DEMO_USER_IDS),
  '00000000-0000-4000-8000-00000000a001',
  '00000000-0000-4000-8000-00000000c001',
];

/** Hostile values of a field's type: any string in a string, every accepted extreme in a number, long lists. */
function hostileValue(shape: Shape): fc.Arbitrary<unknown> {
  switch (shape.kind) {
    case 'string':
      return fc.oneof({ arbitrary: hostileString(), weight: 2 }, fc.constantFrom(...PLAUSIBLE), fc.uuid());
    case 'int64':
      return fc.oneof(fc.constantFrom(...shape.accepts), fc.nat().map(String));
    case 'number':
      return fc.oneof(fc.constantFrom(...shape.accepts), fc.nat(1_000));
    case 'boolean':
      return fc.boolean();
    case 'list':
      return fc.oneof(
        fc.array(hostileValue(shape.of), { maxLength: 4 }),
        ...(shape.of.kind === 'string' ? [fc.constant(Array.from({ length: 5_000 }, (_, i) => `t${i}`))] : []),
      );
    case 'message': {
      const fields = Object.entries(shape.fields);
      const allHostile = fc.record(Object.fromEntries(fields.map(([name, field]) => [name, hostileValue(field)])));
      if (fields.length === 0) return allHostile;
      // With every field hostile, a check of one field (a cursor, a batch size) refuses the call before the others
      // reach the database; one hostile field among defaults, which the services accept, gets that far.
      const oneHostile = fc
        .constantFrom(...fields)
        .chain(([name, field]) => hostileValue(field).map((value) => ({ ...(defaultValue(shape) as Record<string, unknown>), [name]: value })));
      return fc.oneof(allHostile, oneHostile);
    }
  }
}

/** The value a field holds when the caller leaves it unset. */
function defaultValue(shape: Shape): unknown {
  switch (shape.kind) {
    case 'string':
      return '';
    case 'int64':
      return '0';
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'list':
      return [];
    case 'message':
      return Object.fromEntries(Object.entries(shape.fields).map(([name, field]) => [name, defaultValue(field)]));
  }
}

/**
 * Metadata as a caller that reaches the port may send it: a signed actor of any role, the gateway acting for itself
 * (so the calls only it makes, such as QueueAccountMail, get past their check), a forged one, or none; junk beside.
 */
const hostileMetadata = fc.record({
  actor: fc.oneof({ arbitrary: fc.constantFrom(...ROLES), weight: 6 }, fc.constantFrom('gateway', 'forged', 'none')),
  requestId: fc.option(hostileHeaderValue()),
  traceParent: fc.option(hostileHeaderValue()),
  extra: fc.oneof(
    { arbitrary: fc.constant(null), weight: 2 },
    fc.tuple(fc.constantFrom(METADATA.actorToken, METADATA.fieldErrors, 'tracestate', 'x-junk'), hostileHeaderValue()),
  ),
  binary: fc.option(fc.uint8Array({ maxLength: 2_000 })),
});

function metadataOf(spec: typeof hostileMetadata extends fc.Arbitrary<infer T> ? T : never, rpc: Rpc): Metadata {
  const metadata = new Metadata();
  if (spec.actor !== 'none') {
    const actor =
      spec.actor === 'forged' ? { userId: DEMO_USER_IDS.admin, role: 'admin' } : spec.actor === 'gateway' ? GATEWAY_ACTOR : { userId: DEMO_USER_IDS[spec.actor], role: spec.actor };
    const token = String(outgoingMetadata({ acting: actingAs(actor, rpc.service, rpc) }).get(METADATA.actorToken)[0]);
    // Forged: the signature's first character changed (its last carries unused bits, which would change nothing).
    metadata.set(METADATA.actorToken, spec.actor === 'forged' ? token.replace(/\.(.)/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`) : token);
  }
  if (spec.requestId !== null) metadata.set(METADATA.requestId, spec.requestId);
  if (spec.traceParent !== null) metadata.set('traceparent', spec.traceParent);
  if (spec.extra !== null) metadata.set(spec.extra[0], spec.extra[1]);
  if (spec.binary !== null) metadata.set('x-junk-bin', Buffer.from(spec.binary));
  return metadata;
}

/** One call; resolves with the status it got (OK for an answer). */
function callWith(client: Client, rpc: Rpc, request: unknown, metadata: Metadata): Promise<number> {
  // Encoded here first, so that a value the encoder refuses fails the test instead of becoming a client-side status.
  rpc.definition.requestSerialize(request);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      rpc.path,
      rpc.definition.requestSerialize,
      rpc.definition.responseDeserialize,
      request,
      metadata,
      { deadline: Date.now() + 20_000 },
      (error: ServiceError | null) => resolve(error ? error.code : status.OK),
    );
  });
}

/** The statuses of a service that failed (a bug, or a fault it took for an outage) rather than answering: the databases are up. */
const FAULTS = new Set<number>([status.INTERNAL, status.UNAVAILABLE]);

/** A hostile value, readable in a report: long strings and lists abbreviated, control characters and lone surrogates escaped. */
const shown = (value: unknown) =>
  JSON.stringify(value, (_key, field: unknown) => {
    if (typeof field === 'string' && field.length > 60) return `${field.slice(0, 30)}…(${field.length} units)`;
    if (Array.isArray(field) && field.length > 10) return [...field.slice(0, 3), `…(${field.length} items)`];
    return field;
  });

/** The error lines a service wrote for a handler that threw: the RPC and what went wrong. */
const handlerFailures = (log: string) =>
  log
    .split('\n')
    .filter((line) => line.includes('"level":"error"') && line.includes('"msg":"handler failed"'))
    .map((line) => {
      const { method, err } = JSON.parse(line) as { method?: string; err?: { message?: string } };
      return `${method}: ${err?.message?.slice(0, 200)}`;
    });

const RPCS = contractRpcs();

describe('every RPC of every service, called directly with hostile input', () => {
  let system: RunningSystem;
  const clients = new Map<string, Client>();
  const pids = new Map<string, number | undefined>();
  const codes = new Map<string, number>();

  beforeAll(async () => {
    system = await startSystem({ instances: { scheduling: 1 } });
    for (const service of new Set(RPCS.map((rpc) => rpc.service))) {
      clients.set(service, new Client(system.grpcAddress(service as GrpcServiceName), credentials.createInsecure()));
      pids.set(service, system.pid(service as GrpcServiceName));
    }
  }, 90_000);
  afterAll(async () => {
    console.log(`gRPC statuses of the hostile calls: ${JSON.stringify(Object.fromEntries(codes))}`);
    for (const client of clients.values()) client.close();
    await system?.shutdown();
  });

  it('knows every RPC of the contracts, each served by a running process', () => {
    expect(RPCS.length).toBeGreaterThan(30);
    for (const service of new Set(RPCS.map((rpc) => rpc.service))) expect(GRPC_SERVICE_NAMES).toContain(service);
  });

  it.each(RPCS.map((rpc) => [rpc.path, rpc] as const))('%s answers every call with a status, never INTERNAL or UNAVAILABLE', async (_path, rpc) => {
    const client = clients.get(rpc.service);
    if (!client) throw new Error(`no process serves ${rpc.path}`);
    const faults: string[] = [];
    await fc.assert(
      fc.asyncProperty(hostileValue(rpc.request), hostileMetadata, async (request, metadata) => {
        const code = await callWith(client, rpc, request, metadataOf(metadata, rpc));
        expect(status[code]).toBeDefined();
        codes.set(status[code], (codes.get(status[code]) ?? 0) + 1);
        if (FAULTS.has(code)) faults.push(`${status[code]} for ${shown(request)} as ${metadata.actor}`);
      }),
      { numRuns: RUNS_PER_RPC },
    );
    // Collected rather than asserted inside the property: shrinking would replay 100 KB values against 20 s deadlines.
    expect(faults).toEqual([]);
    const pid = system.pid(rpc.service as GrpcServiceName);
    expect(pid).toBe(pids.get(rpc.service));
  }, 120_000);

  it.each(GRPC_SERVICE_NAMES)('%s is still the same process, SERVING, with no handler failure and no status it could not encode', async (service) => {
    const pid = system.pid(service);
    expect(pid).toBeDefined();
    expect(pid).toBe(pids.get(service));
    expect(() => process.kill(pid ?? 0, 0)).not.toThrow();
    const probe = new HealthProbe(system.grpcAddress(service));
    try {
      expect(await probe.check(5_000)).toBe('SERVING');
    } finally {
      probe.close();
    }
    expect(system.logs(service)).not.toMatch(/could not send the answer/);
    expect(handlerFailures(system.logs(service))).toEqual([]);
  });
});
