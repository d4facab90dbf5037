import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
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
      return HttpProblem.badRequest('the request is not valid HTTP (a header may hold a control character such as CR or LF)');
  }
}

/**
 * Requests Node refuses before Express sees them (malformed or injected headers,
 * timeouts) still get an RFC 9457 answer, with a fresh request id so that the
 * client can quote it, and the connection is closed.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const problem = problemFor(error.code);
    logger.info({ requestId, code: error.code, status: problem.status }, 'refused a malformed or stalled request');
    const body = JSON.stringify(problem.body(requestId));
    socket.end(
      `HTTP/1.1 ${problem.status} ${problem.title}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
