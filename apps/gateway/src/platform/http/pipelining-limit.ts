import type { Socket } from 'node:net';
import type { RequestHandler, Response } from 'express';
import { isClosing } from '@libs/http-problems';

/**
 * The most requests one connection may have waiting for their answers. Node parses every request pipelined
 * in a received chunk at once and queues their answers in memory, so one write of `GET /openapi.json` lines
 * could run the gateway out of memory (apps/e2e/src/http-limits.spec.ts sends such a write; the figures are in
 * docs/PERFORMANCE.md, "Figures behind design comments"). Browsers and HTTP libraries pipeline a few requests at
 * most (most never do), so a connection past this is closed.
 */
export const MAX_PIPELINED_REQUESTS = 16;

export function pipeliningLimit(): RequestHandler {
  const waiting = new WeakMap<Socket, Set<Response>>();
  const waitingOn = (socket: Socket): Set<Response> => {
    let answers = waiting.get(socket);
    if (!answers) {
      const created = new Set<Response>();
      waiting.set(socket, created);
      // Node never closes the answers still queued behind the one in progress when their connection goes, so
      // whatever waits for them (metrics in flight, say) would wait for ever: they are closed here.
      socket.once('close', () => {
        for (const res of created) res.emit('close');
      });
      answers = created;
    }
    return answers;
  };
  return (req, res, next) => {
    const socket = req.socket;
    // Closed for pipelining too much, or closing after a refused body: its other requests get no answer.
    if (socket.destroyed || isClosing(socket)) return;
    const answers = waitingOn(socket);
    answers.add(res);
    res.once('close', () => answers.delete(res));
    if (answers.size > MAX_PIPELINED_REQUESTS) {
      socket.destroy();
      return;
    }
    next();
  };
}
