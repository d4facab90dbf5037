import { makeGenericClientConstructor, type Client, type handleUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { createLogger } from '@libs/logging';
import { createClient } from './client';
import { jsonTestService } from './json-test-service';
import { startGrpcServer, type RunningGrpcServer } from './server';

const definition = jsonTestService('test.Peer', ['Peer']);
type PeerMethod = (request: object, options: { deadline: number }, callback: (error: ServiceError | null, peer: string) => void) => void;

// A gRPC client looks its target's name up again only when a connection ends; the servers end each one after a
// while so that clients find the instances added since (an autoscaler behind a headless Service).
describe('connection age', () => {
  const AGE_MS = 300;
  let server: RunningGrpcServer;
  let client: Client;

  beforeAll(async () => {
    // The answer is the client's address as the server sees it: a new port is a new connection.
    const peer: handleUnaryCall<unknown, string> = (call, callback) => callback(null, call.getPeer());
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: createLogger('test', 'silent'),
      services: [{ name: 'test.Peer', definition, implementation: { Peer: peer } }],
      maxConnectionAgeMs: AGE_MS,
    });
    client = createClient(makeGenericClientConstructor(definition, 'Peer'), `127.0.0.1:${server.port}`);
  });
  afterAll(async () => {
    client.close();
    await server.shutdown(1_000);
  });

  it('ends every client connection after its age, and calls carry on over a new one without a failure', async () => {
    const call = (client as unknown as { Peer: PeerMethod }).Peer.bind(client);
    const peers: string[] = [];
    const failures: string[] = [];
    const until = Date.now() + 6 * AGE_MS;
    while (Date.now() < until) {
      await new Promise<void>((resolve) =>
        call({}, { deadline: Date.now() + 2_000 }, (error, peer) => {
          if (error) failures.push(error.message);
          else peers.push(peer);
          resolve();
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(failures).toEqual([]);
    // About six ages with ±10% jitter: at least four connections, one after the other.
    expect(new Set(peers).size).toBeGreaterThanOrEqual(4);
  });
});
