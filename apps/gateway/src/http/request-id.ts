import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { requestContext } from '@libs/logging';

// A client's id is kept only when it is short and plain: anything else (newlines,
// 10 KB of junk) could forge log lines or headers, so it is replaced.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Takes X-Request-Id from the request or makes one, echoes it, and runs the rest of the request in its context. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    const id = given && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    requestContext.run({ requestId: id }, next);
  };
}
