import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@libs/logging';
import { problemHandler } from './express';
import { LINGER } from './lingering-close';
import { HttpProblem } from './problem';

/** What a client sending a body saw: the answer's status line, and the error its socket met, if any. */
interface Seen {
  answer: string;
  /** Bytes of body the client could write before the connection closed. */
  sent: number;
  error?: string;
}

/**
 * Announces `announced` bytes of body and sends `bytes` of them in 64 KB writes, then a byte every `trickleMs`
 * (if given), on a socket that keeps writing after the server's FIN, as a client still uploading does; resolves once
 * the connection is closed.
 */
function send(server: Server, { announced, bytes, trickleMs }: { announced: number; bytes: number; trickleMs?: number }): Promise<Seen> {
  return new Promise((resolve) => {
    const { port } = server.address() as AddressInfo;
    const seen: Seen = { answer: '', sent: 0 };
    const piece = Buffer.alloc(65_536, 0x20);
    let sent = 0;
    let trickle: NodeJS.Timeout | undefined;
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => {
      socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${announced}\r\n\r\n`);
      const write = () => {
        while (sent < bytes && !socket.destroyed) {
          const chunk = piece.subarray(0, Math.min(piece.length, bytes - sent));
          sent += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', write);
        }
        if (trickleMs) trickle = setInterval(() => socket.write(' '), trickleMs);
        else socket.end();
      };
      write();
    });
    socket.on('data', (chunk) => (seen.answer ||= chunk.toString().split('\r\n')[0]));
    socket.on('error', (error: NodeJS.ErrnoException) => (seen.error ??= error.code));
    socket.on('close', () => {
      clearInterval(trickle);
      seen.sent = sent;
      resolve(seen);
    });
  });
}

describe('closeAfterAnswer: a body refused before it was read', () => {
  let server: Server;

  beforeAll(async () => {
    const app = express();
    // Refused before anything reads the body, as a request without a key is.
    app.post('/', () => {
      throw new HttpProblem(401, 'send a key');
    });
    app.use(problemHandler(createLogger('test', 'silent')));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('reads and drops the rest of the body after the answer, so that a client still sending it meets no reset', async () => {
    const bytes = LINGER.bytes / 2;
    // Node would close at once: the client's next writes would meet a reset (EPIPE, ECONNRESET).
    expect(await send(server, { announced: bytes, bytes })).toEqual({ answer: 'HTTP/1.1 401 Unauthorized', sent: bytes });
  });

  it('reads it for no longer than LINGER.ms', async () => {
    // A kilobyte of the megabyte announced, then a byte now and then.
    const started = Date.now();
    const seen = await send(server, { announced: 1_048_576, bytes: 1_024, trickleMs: 100 });
    expect(seen.answer).toBe('HTTP/1.1 401 Unauthorized');
    expect(seen.error).toMatch(/EPIPE|ECONNRESET/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LINGER.ms - 100);
  }, 3 * LINGER.ms + 5_000);

  it('reads no more than LINGER.bytes of it', async () => {
    const started = Date.now();
    const seen = await send(server, { announced: 8 * LINGER.bytes, bytes: 4 * LINGER.bytes });
    // Ended by the bytes, not by the time.
    expect(Date.now() - started).toBeLessThan(LINGER.ms);
    expect(seen.answer).toBe('HTTP/1.1 401 Unauthorized');
    expect(seen.error).toMatch(/EPIPE|ECONNRESET/);
    // Read up to the bound (the client could send that much), then reset.
    expect(seen.sent).toBeGreaterThan(LINGER.bytes);
    expect(seen.sent).toBeLessThan(4 * LINGER.bytes);
  });
});
