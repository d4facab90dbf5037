import { randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { HttpProblem } from '@libs/http-problems';
import type { Logger } from '@libs/logging';

/** What Node's HTTP parser and timers report, mapped to what the client did. */
function problemFor(code: string | undefined): HttpProblem {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new HttpProblem(408, 'the request was not received in time');
    case 'HPE_HEADER_OVERFLOW':
      return new HttpProblem(431, 'the request headers are too large');
    default:
      return HttpProblem.badRequest(
        'the request is not valid HTTP (a malformed request line, or a header holding a control character such as CR or LF)',
      );
  }
}

/**
 * A problem answered outside Express, with a fresh request id that the client
 * can quote; the connection is closed, since what follows on it is unknown.
 */
function problemResponse(problem: HttpProblem): { requestId: string; headers: OutgoingHttpHeaders; body: string } {
  const requestId = randomUUID();
  const body = JSON.stringify(problem.body(requestId));
  const headers = {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
    'X-Request-Id': requestId,
    Connection: 'close',
  };
  return { requestId, headers, body };
}

/**
 * Requests that Node answers by itself, before Express sees them, still get an
 * RFC 9457 answer: malformed requests, oversized headers and timeouts (the
 * server's 'clientError', written raw to the socket), and an `Expect` other
 * than `100-continue` ('checkExpectation', 417).
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const problem = problemFor(error.code);
    const { requestId, headers, body } = problemResponse(problem);
    logger.info({ requestId, code: error.code, status: problem.status }, 'refused a malformed or stalled request');
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}\r\n`);
    socket.end(`HTTP/1.1 ${problem.status} ${problem.title}\r\n${lines.join('')}\r\n${body}`);
  });

  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const problem = new HttpProblem(417, 'the only expectation this server meets is "Expect: 100-continue"');
    const { requestId, headers, body } = problemResponse(problem);
    logger.info({ requestId, status: problem.status }, 'refused an unsupported Expect header');
    res.writeHead(problem.status, headers).end(body);
  });
}

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2). Node would answer its
 * absence with a bare 400 of its own; the server is created with
 * `requireHostHeader: false` so that this middleware answers a problem instead.
 */
export function requireHostHeader(): RequestHandler {
  return (req, _res, next) => {
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      throw new HttpProblem(400, 'send a Host header: HTTP/1.1 requires one', { headers: { Connection: 'close' } });
    }
    next();
  };
}
