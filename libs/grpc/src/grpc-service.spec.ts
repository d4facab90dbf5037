import { makeGenericClientConstructor, type Client, type ServiceError } from '@grpc/grpc-js';
import { createLogger } from '@libs/logging';
import { metricsRegistry } from '@libs/metrics';
import { createClient } from './client';
import { grpcService } from './grpc-service';
import { HealthProbe } from './health-client';
import { jsonTestService } from './json-test-service';
import { startGrpcServer, type RunningGrpcServer } from './server';

// Keyed as ts-proto keys a definition (greet), the RPC's own name (Greet) only in its path.
const { Greet } = jsonTestService('test.v1.Greeter', ['Greet']);
const definition = { greet: Greet };
type GreetMethod = (request: { name: string }, callback: (error: ServiceError | null, answer: { text: string }) => void) => void;

describe('grpcService', () => {
  let server: RunningGrpcServer;
  let client: Client;
  let health: HealthProbe;

  beforeAll(async () => {
    const handling = { logger: createLogger('test', 'silent'), actors: null };
    const greeter = grpcService(definition, handling, {
      greet: async (request: { name: string }, context) => ({ text: `hello ${request.name}, request ${context.requestId.length > 0}` }),
    });
    server = await startGrpcServer({ host: '127.0.0.1', port: 0, logger: handling.logger, services: [greeter] });
    client = createClient(makeGenericClientConstructor(definition, 'Greeter'), `127.0.0.1:${server.port}`);
    health = new HealthProbe(`127.0.0.1:${server.port}`);
  });
  afterAll(async () => {
    client.close();
    health.close();
    await server.shutdown(1_000);
  });

  it('serves each method of the definition by its handler, under the service name its paths give', async () => {
    const greet = (client as unknown as { greet: GreetMethod }).greet.bind(client);
    const answer = await new Promise((resolve, reject) => greet({ name: 'Ada' }, (error, reply) => (error ? reject(error) : resolve(reply))));
    expect(answer).toEqual({ text: 'hello Ada, request true' });
    expect(await health.check(2_000, 'test.v1.Greeter')).toBe('SERVING');
    // Timed under the RPC's name, as every service's calls are.
    expect(await metricsRegistry().getSingleMetricAsString('grpc_server_handling_seconds')).toContain('method="Greet",code="OK"');
  });
});
