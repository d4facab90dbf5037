import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { problemHandler } from '@libs/http-problems';
import { createLogger } from '@libs/logging';
import { requireJsonBody } from './json-body';

/** Sends a raw HTTP request (so no client adds headers of its own) and returns the status code. */
function rawStatus(server: Server, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => socket.end(request));
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1])));
    socket.on('error', reject);
  });
}

describe('requireJsonBody', () => {
  let server: Server;
  beforeAll(async () => {
    const app = express();
    app.use(requireJsonBody());
    app.post('/thing', (_req, res) => {
      res.status(204).end();
    });
    app.use(problemHandler(createLogger('test', 'silent')));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('lets a POST without any body through (curl -X POST sends neither length nor type)', async () => {
    expect(await rawStatus(server, 'POST /thing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toBe(204);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const request = 'POST /thing HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi';
    expect(await rawStatus(server, request)).toBe(415);
  });
});
