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
  /** Larger than grpc-js's default retry buffer of a call (1 MiB), as the gateway's bulk creates can be. */
  const LARGE_REQUEST_BYTES = 1_200_000;
  let server: RunningGrpcServer;
  let client: Client;

  beforeAll(async () => {
    // The answer is the client's address as the server sees it (a new port is a new connection), after a few ms of
    // work, so that calls are in flight when the connection is renewed.
    const peer: handleUnaryCall<unknown, string> = (call, callback) => setTimeout(() => callback(null, call.getPeer()), Math.random() * 50);
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: createLogger('test', 'silent'),
      services: [{ name: 'test.Peer', definition, implementation: { Peer: peer } }],
      maxConnectionAgeMs: AGE_MS,
    });
    client = createClient(makeGenericClientConstructor(definition, 'Peer'), `127.0.0.1:${server.port}`, {
      largestRequestBytes: 2 * LARGE_REQUEST_BYTES,
    });
  });
  afterAll(async () => {
    client.close();
    await server.shutdown(1_000);
  });

  /** `callers` calls at a time for `ms`, each with `request`: the peers that answered and the failures. */
  async function callFor(ms: number, callers: number, request: object) {
    const call = (client as unknown as { Peer: PeerMethod }).Peer.bind(client);
    const peers: string[] = [];
    const failures: string[] = [];
    const until = Date.now() + ms;
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (Date.now() < until) {
          await new Promise<void>((resolve) =>
            // A deadline far past any answer's time on a loaded machine: only a refusal may fail a call here.
            call(request, { deadline: Date.now() + 20_000 }, (error, peer) => {
              if (error) failures.push(error.message);
              else peers.push(peer);
              resolve();
            }),
          );
        }
      }),
    );
    return { peers, failures };
  }

  it('ends every client connection after its age, and calls carry on over a new one without a failure', async () => {
    const { peers, failures } = await callFor(6 * AGE_MS, 1, {});
    expect(failures).toEqual([]);
    // About six ages with ±10% jitter: at least four connections, one after the other.
    expect(new Set(peers).size).toBeGreaterThanOrEqual(4);
  });

  it('repeats on a new connection the large calls that met a renewal, so that none fails', async () => {
    // A call sent as the server sends its GOAWAY is refused unseen; grpc-js repeats it only if it kept the request.
    const { peers, failures } = await callFor(30 * AGE_MS, 8, { pad: 'x'.repeat(LARGE_REQUEST_BYTES) });
    expect(failures).toEqual([]);
    // Renewals did happen under these calls: as many as a loaded machine's pace allows (16 seen in a CI run), a few at least.
    expect(new Set(peers).size).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
