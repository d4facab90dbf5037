import { Server, ServerCredentials, status, type MethodDefinition, type ServiceDefinition, type ServiceError, type UntypedHandleCall } from '@grpc/grpc-js';
import { financeV1, referenceV1, schedulingV1 } from '@libs/contracts';
import { callUnary, createClient, Metadata, METADATA } from '@libs/grpc';
import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';
import { scrape, total } from './metrics';

/** What a stand-in service saw of each call: its method and the actor token it carried. */
interface Seen {
  path: string;
  token?: string;
}

/**
 * A stand-in for a service, where the gateway is pointed instead of the real one: it records each unary call's actor
 * token, as someone reading the network's plaintext gRPC would, and answers an empty message (or UNAVAILABLE).
 */
async function capturing(definitions: ServiceDefinition[], answer: (path: string) => 'empty' | 'unavailable') {
  const seen: Seen[] = [];
  const server = new Server();
  for (const definition of definitions) {
    const unary = Object.entries(definition).filter(([, method]) => !method.requestStream && !method.responseStream);
    const implementation = Object.fromEntries(
      unary.map(([key, method]: [string, MethodDefinition<unknown, unknown>]): [string, UntypedHandleCall] => [
        key,
        (call: { metadata: Metadata }, callback: (error: Partial<ServiceError> | null, value?: unknown) => void) => {
          const token = call.metadata.get(METADATA.actorToken)[0];
          seen.push({ path: method.path, token: token === undefined ? undefined : String(token) });
          if (answer(method.path) === 'empty') callback(null, method.responseDeserialize(Buffer.alloc(0)));
          else callback({ code: status.UNAVAILABLE, details: 'a stand-in' });
        },
      ]),
    );
    server.addService(definition, implementation);
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return { address: `127.0.0.1:${port}`, seen, close: () => server.forceShutdown() };
}

const refusals = async (system: RunningSystem, service: 'finance' | 'scheduling', reason: string) =>
  total(await scrape(system.metricsUrl(service)), 'grpc_actor_refused_total', { reason });

describe('actor tokens captured on the network', () => {
  let system: RunningSystem;
  let finance: Awaited<ReturnType<typeof capturing>>;
  let reference: Awaited<ReturnType<typeof capturing>>;

  beforeAll(async () => {
    finance = await capturing([financeV1.FinanceServiceService], () => 'empty');
    reference = await capturing([referenceV1.ReferenceServiceService], () => 'unavailable');
    // The gateway alone calls the stand-ins; the services (and the test) reach the real finance and reference.
    system = await startSystem({ env: { gateway: { FINANCE_ADDR: finance.address, REFERENCE_ADDR: reference.address } } });
  }, 120_000);
  afterAll(async () => {
    await system?.shutdown();
    finance?.close();
    reference?.close();
  });

  it("carry nothing to the reference service, and the finance token is good for finance's ListTransactions alone", async () => {
    await api(system.gatewayUrl, '/api/v1/diseases?q=asthma', { key: system.keys.reader, unchecked: true });
    expect(reference.seen.length).toBeGreaterThan(0);
    expect(reference.seen.filter((call) => call.token !== undefined)).toEqual([]);

    await api(system.gatewayUrl, '/api/v1/transactions', { key: system.keys.bursar, unchecked: true });
    const captured = finance.seen.find((call) => call.path === '/finance.v1.FinanceService/ListTransactions')?.token;
    expect(captured).toBeDefined();
    const metadata = new Metadata();
    metadata.set(METADATA.actorToken, captured ?? '');

    const realFinance = createClient(financeV1.FinanceServiceClient, system.grpcAddress('finance'));
    const scheduling = createClient(schedulingV1.SchedulingServiceClient, system.grpcAddress('scheduling'));
    const options = { metadata, timeoutMs: 10_000 };
    try {
      // The gateway's genuine token, where it was meant to go.
      await expect(callUnary(realFinance.listTransactions.bind(realFinance), financeV1.ListTransactionsRequest.fromPartial({ limit: 1 }), options)).resolves.toBeDefined();
      // Replayed to another method of the same service, and to another service.
      await expect(callUnary(realFinance.getTransaction.bind(realFinance), { id: '00000000-0000-4000-8000-000000000000' }, options)).rejects.toMatchObject({
        code: status.UNAUTHENTICATED,
        details: 'the actor token was refused (method)',
      });
      await expect(callUnary(scheduling.listLocations.bind(scheduling), schedulingV1.ListLocationsRequest.fromPartial({}), options)).rejects.toMatchObject({
        code: status.UNAUTHENTICATED,
        details: 'the actor token was refused (audience)',
      });
    } finally {
      realFinance.close();
      scheduling.close();
    }
    expect(await refusals(system, 'finance', 'method')).toBe(1);
    expect(await refusals(system, 'scheduling', 'audience')).toBe(1);
    expect(system.logs('scheduling')).toMatch(/actor token refused/);
  }, 60_000);
});
