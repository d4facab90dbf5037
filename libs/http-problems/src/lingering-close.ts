import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long the rest of a refused body is still read after the answer, at most, before the connection ends. */
export const LINGER_MS = 2_000;

const lingering = new WeakSet<object>();

/**
 * Ends the connection after this answer, whose request body was not read to its end (refused before it was read,
 * or past a limit), without cutting the answer off. Node would close the socket as soon as the answer is written,
 * with the client's bytes still unread, and the kernel would then reset the connection: a client still sending its
 * body meets the reset (EPIPE, ECONNRESET), often before it reads the answer. So the close lingers (RFC 9112
 * §9.6): the answer goes out, the write side is closed, and what the client still sends is read and dropped until
 * its body ends, for at most LINGER_MS (a time, not a size, bounds it, as nginx's lingering_time does: reading and
 * dropping costs little but the wait).
 */
export function closeAfterAnswer(res: ServerResponse, req: IncomingMessage = res.req): void {
  res.setHeader('Connection', 'close');
  const socket = res.socket;
  if (!socket || lingering.has(socket)) return;
  lingering.add(socket);
  const closeAtOnce = socket.destroySoon.bind(socket);
  // Node's HTTP server calls destroySoon once the answer that closes the connection is written, and has resumed
  // the request so that its parser reads the body and drops it (unless an upload had been reading it: resumed here).
  socket.destroySoon = () => {
    if (req.complete) return closeAtOnce();
    socket.end();
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    req.once('end', close);
    req.once('error', close);
    socket.once('close', () => clearTimeout(timer));
    req.resume();
  };
}
