import { once } from 'node:events';
import { makeGenericClientConstructor, type Client, type ClientReadableStream, type ClientWritableStream, type ServiceError } from '@grpc/grpc-js';
import { createLogger } from '@libs/logging';
import { createClient } from './client';
import { grpcService } from './grpc-service';
import { jsonTestService } from './json-test-service';
import { startGrpcServer, type RunningGrpcServer } from './server';

const { Sum, Count } = jsonTestService('test.v1.Streams', ['Sum', 'Count']);
const definition = { sum: { ...Sum, requestStream: true as const }, count: { ...Count, responseStream: true as const } };

interface StreamsClient {
  sum(callback: (error: ServiceError | null, answer: { total: number }) => void): ClientWritableStream<{ n: number }>;
  count(request: { to: number }): ClientReadableStream<{ n: number }>;
}

describe('streaming handlers', () => {
  let server: RunningGrpcServer;
  let client: Client & StreamsClient;

  beforeAll(async () => {
    const handling = { logger: createLogger('test', 'silent'), actors: null };
    const service = grpcService(definition, handling, {
      sum: async (requests: AsyncIterable<{ n: number }>) => {
        let total = 0;
        for await (const { n } of requests) total += n;
        return { total };
      },
      count: async function* (request: { to: number }) {
        for (let n = 1; n <= request.to; n += 1) yield { n };
      },
    });
    server = await startGrpcServer({ host: '127.0.0.1', port: 0, logger: handling.logger, services: [service] });
    client = createClient(makeGenericClientConstructor(definition, 'Streams'), `127.0.0.1:${server.port}`) as unknown as Client & StreamsClient;
  });
  afterAll(async () => {
    client.close();
    await server.shutdown(1_000);
  });

  it('reads a stream of requests to its end, and answers once', async () => {
    const total = await new Promise((resolve, reject) => {
      const stream = client.sum((error, answer) => (error ? reject(error) : resolve(answer.total)));
      for (const n of [1, 2, 3, 4]) stream.write({ n });
      stream.end();
    });
    expect(total).toBe(10);
  });

  it('sends the answer’s headers as soon as it has a stream of requests, before the last one', async () => {
    let stream: ClientWritableStream<{ n: number }> | undefined;
    const total = new Promise((resolve, reject) => {
      stream = client.sum((error, answer) => (error ? reject(error) : resolve(answer.total)));
    });
    stream?.write({ n: 1 });
    // Until the headers come, the client's grpc-js holds every message written, to send them again if need be.
    await once(stream as ClientWritableStream<{ n: number }>, 'metadata');
    stream?.end();
    expect(await total).toBe(1);
  });

  it('writes each answer the handler yields, then ends the stream', async () => {
    const answers: number[] = [];
    for await (const { n } of client.count({ to: 5 }) as AsyncIterable<{ n: number }>) answers.push(n);
    expect(answers).toEqual([1, 2, 3, 4, 5]);
  });
});
