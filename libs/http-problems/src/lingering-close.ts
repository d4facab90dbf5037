import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How much of a refused body is still read after the answer, at most: for this long, and this many bytes. The time
 * is nginx's idea (lingering_time); the bytes bound what one refused request can make the gateway read and drop,
 * since on a fast link 2 s is gigabytes. Past either, the connection is reset, as it was before the linger.
 */
export const LINGER = { ms: 2_000, bytes: 16 * 1_048_576 } as const;

const closing = new WeakSet<Socket>();

/**
 * Whether this connection is closing after a refused body's answer. No request that still arrives on it is handled
 * (RFC 9112 §9.6: none after the one whose answer said `Connection: close`); Node's parser would hand on one
 * pipelined behind the body.
 */
export function isClosing(socket: Socket): boolean {
  return closing.has(socket);
}

/**
 * Ends the connection after this answer, whose request body was not read to its end (refused before anything read
 * it, or past a limit). Node would destroy the socket once the answer is written, with the client's bytes still
 * unread, and the kernel would then reset the connection: a client still sending its body meets the reset (EPIPE,
 * ECONNRESET), often before it has read the answer. So the close lingers (RFC 9112 §9.6): the answer and a FIN go
 * out, and what the client still sends is read and dropped until its body ends, within LINGER.
 *
 * Whatever was reading the body (an upload that failed) must have let go of it, as it does on failure (unpipe,
 * pause): from here on its bytes go nowhere.
 */
export function closeAfterAnswer(res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  // The request's socket: an answer queued behind an earlier one's (pipelining) has none of its own yet.
  const { req } = res;
  const socket = req.socket;
  if (closing.has(socket)) return;
  closing.add(socket);
  // Bytes off the wire, not of the body: a chunked body's framing and extensions count too.
  const readBefore = socket.bytesRead;
  const tooMuch = () => socket.bytesRead - readBefore > LINGER.bytes;
  let lingering = false;
  // Read from now on, which also keeps Node from dumping the request once the answer is finished: a dumped body is
  // thrown away by the parser unseen, and so could not be bounded.
  req.on('data', () => {
    if (!tooMuch()) return;
    req.pause();
    if (lingering) socket.destroy();
  });
  req.resume();
  const closeAtOnce = socket.destroySoon.bind(socket);
  // Node's HTTP server calls destroySoon once the answer that closes the connection is finished.
  socket.destroySoon = () => {
    if (req.complete || req.destroyed || tooMuch()) return closeAtOnce();
    lingering = true;
    socket.end();
    const close = () => socket.destroy();
    const timer = setTimeout(close, LINGER.ms);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    req.once('end', close);
    req.once('error', close);
  };
}
