import { connect, type AddressInfo, type Socket } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { z } from 'zod';
import { PUBLIC_BODY_LIMIT_BYTES } from '@libs/contracts';
import { HttpProblem, LINGER, problemHandler } from '@libs/http-problems';
import { createLogger } from '@libs/logging';
import { deferredJsonBody, parseBody } from './json-body';

const LIMIT = 65_536;

/**
 * Sends a raw HTTP request (so no client adds headers of its own), then up to
 * `bodyBytes` of body in 16 KB pieces while the server reads, and returns what
 * came back once the connection closed.
 */
function raw(server: Server, head: string, bodyBytes = 0): Promise<{ status: number; reply: string }> {
  return new Promise((resolve, reject) => {
    let reply = '';
    let sentBody = 0;
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
      socket.write(head);
      const pump = () => {
        while (sentBody < bodyBytes && !socket.destroyed) {
          sentBody += 16_384;
          if (!socket.write('x'.repeat(16_384))) return void socket.once('drain', pump);
        }
      };
      pump();
    });
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1]), reply }));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
  });
}

const thing = z.object({ a: z.number() }).strict();

describe('deferredJsonBody and parseBody', () => {
  let server: Server;
  beforeAll(async () => {
    const app = express();
    app.use(deferredJsonBody(LIMIT));
    // A stand-in for requireKey: refuses without an Authorization header, before the handler reads anything.
    const keyed = express.Router().use((req, _res, next) => next(req.get('authorization') ? undefined : new HttpProblem(401, 'no key')));
    app.post('/keyed', keyed, async (req, res) => {
      res.json({ body: await parseBody(req, res, thing.optional()) });
    });
    app.post('/public', async (req, res) => {
      res.json({ body: await parseBody(req, res, thing, 'public') });
    });
    app.use(problemHandler(createLogger('test', 'silent')));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (path: string, headers: string, body: string) =>
    raw(server, `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

  it('parses a JSON body once the handler asks for it', async () => {
    const { status, reply } = await post('/keyed', 'Authorization: yes\r\nContent-Type: application/json\r\n', '{"a":1}');
    expect(status).toBe(200);
    expect(reply).toContain('{"body":{"a":1}}');
  });

  it('lets a POST without any body through (curl -X POST sends neither length nor type; fetch sends length 0)', async () => {
    for (const length of ['', 'Content-Length: 0\r\n']) {
      const { status, reply } = await raw(server, `POST /keyed HTTP/1.1\r\nHost: x\r\nAuthorization: yes\r\n${length}Connection: close\r\n\r\n`);
      expect(status).toBe(200);
      expect(reply).toContain('{}');
    }
  });

  it('refuses a body that is not JSON with 415', async () => {
    expect((await post('/keyed', 'Authorization: yes\r\nContent-Type: text/plain\r\n', 'hi')).status).toBe(415);
  });

  it('answers 401, not 400 or 415, to a request without a key, whatever its body', async () => {
    expect((await post('/keyed', 'Content-Type: application/json\r\n', '{not json')).status).toBe(401);
    expect((await post('/keyed', 'Content-Type: text/plain\r\n', 'hi')).status).toBe(401);
  });

  /** Sends `head` and 64 MB of body: the status, the reply, and how much the server read before it closed. */
  async function offerLargeBody(head: (declared: number) => string) {
    const declared = 64 * 1_048_576;
    const serverRead = new Promise<number>((resolve) => server.once('connection', (socket: Socket) => socket.once('close', () => resolve(socket.bytesRead))));
    const { status, reply } = await raw(server, head(declared), declared);
    return { status, reply, serverRead: await serverRead, declared };
  }

  it('answers 401 to a large body without a key before it arrives, and closes instead of reading it all', async () => {
    const { status, reply, serverRead, declared } = await offerLargeBody(
      (declared) => `POST /keyed HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    expect(status).toBe(401);
    expect(reply).toMatch(/\r\nConnection: close\r\n/i);
    // What the server took off the socket before closing it: what the close lingers over at most, not the 64 MB.
    expect(serverRead).toBeLessThan(LINGER.bytes + 1_048_576);
    expect(serverRead).toBeLessThan(declared / 2);
  });

  it('answers 413 to a declared length over the limit before reading the body, and closes instead of reading it all', async () => {
    const { status, reply, serverRead } = await offerLargeBody(
      (declared) => `POST /keyed HTTP/1.1\r\nHost: x\r\nAuthorization: yes\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    expect(status).toBe(413);
    expect(reply).toContain(`the request body is larger than the limit of ${LIMIT} bytes`);
    // The JSON parser, asked, would read all 64 MB before answering.
    expect(serverRead).toBeLessThan(LINGER.bytes + 1_048_576);
  });

  it(`holds public operations to ${PUBLIC_BODY_LIMIT_BYTES} bytes`, async () => {
    const body = JSON.stringify({ a: 1, pad: 'x'.repeat(PUBLIC_BODY_LIMIT_BYTES) });
    expect((await post('/public', 'Content-Type: application/json\r\n', body)).status).toBe(413);
    expect((await post('/keyed', 'Authorization: yes\r\nContent-Type: application/json\r\n', body)).status).toBe(400);
  });
});
