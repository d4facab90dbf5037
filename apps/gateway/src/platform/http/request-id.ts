import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { plainRequestId, requestContext } from '@libs/logging';

/**
 * Makes the request's id, which goes to every service, event and audit entry, and runs the rest of the request in
 * its context. A client's X-Request-Id (when plain) is kept beside it as the client request id, echoed in
 * X-Client-Request-Id and written in every log line: a client may not choose what the audit log records as the
 * request that made a change (two clients could send the same id, or one could claim another's).
 */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const id = randomUUID();
    const clientRequestId = plainRequestId(req.get('x-request-id'));
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    if (clientRequestId) res.setHeader('X-Client-Request-Id', clientRequestId);
    requestContext.run({ requestId: id, ...(clientRequestId && { clientRequestId }) }, next);
  };
}
