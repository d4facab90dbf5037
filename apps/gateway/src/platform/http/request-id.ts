import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { plainRequestId, requestContext } from '@libs/logging';

/** Takes X-Request-Id from the request (when plain) or makes one, echoes it, and runs the rest of the request in its context. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const id = plainRequestId(req.get('x-request-id')) ?? randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    requestContext.run({ requestId: id }, next);
  };
}
