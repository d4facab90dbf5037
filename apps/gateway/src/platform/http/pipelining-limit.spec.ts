import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import { HttpProblem, problemHandler } from '@libs/http-problems';
import { createLogger } from '@libs/logging';
import { pipeliningLimit } from './pipelining-limit';

const PIPELINED = 'POST /count HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n';

describe('pipeliningLimit: a request pipelined behind another', () => {
  let server: Server;
  let handled = 0;

  beforeAll(async () => {
    const app = express();
    app.use(pipeliningLimit());
    // Refused before anything reads the body, as a request without a key is.
    app.post('/refuse', () => {
      throw new HttpProblem(401, 'send a key');
    });
    app.post('/count', (_req, res) => {
      handled += 1;
      res.status(204).end();
    });
    app.use(problemHandler(createLogger('test', 'silent')));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (handled = 0));

  /**
   * Sends `first`, waits for its answer, then sends `rest` and a pipelined POST /count in one write; resolves with the
   * status lines the client read once the connection closed.
   */
  function answerThenPipeline(first: string, rest: string): Promise<string[]> {
    return new Promise((resolve) => {
      const { port } = server.address() as AddressInfo;
      let received = '';
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(first));
      socket.on('data', (chunk) => {
        if (received === '') socket.end(`${rest}${PIPELINED}`);
        received += chunk.toString();
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received.split('\r\n').filter((line) => line.startsWith('HTTP/1.1'))));
    });
  }

  it('is not handled when the refused body was still arriving (RFC 9112 §9.6)', async () => {
    const refused = `POST /refuse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n${' '.repeat(10)}`;
    expect(await answerThenPipeline(refused, ' '.repeat(90))).toEqual(['HTTP/1.1 401 Unauthorized']);
    expect(handled).toBe(0);
  });

  it('is handled behind an answered request that had no body', async () => {
    expect(await answerThenPipeline(PIPELINED, '')).toEqual(['HTTP/1.1 204 No Content', 'HTTP/1.1 204 No Content']);
    expect(handled).toBe(2);
  });
});
