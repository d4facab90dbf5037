import type { ErrorRequestHandler } from 'express';
import { isTransientDatabaseError } from '@libs/db';
import { HttpProblem, sendProblem } from '@libs/http-problems';
import type { Logger } from '@libs/logging';

/**
 * The gateway's own database (users, keys, sessions) away for now is no bug of
 * ours: an honest 503 with Retry-After lets the client retry, as the services'
 * outages do, rather than a 500. One short warn line per request (the cause, not
 * the query and its values: an outage repeats it at the request rate). Any other
 * error goes on to problemHandler.
 */
export function databaseUnavailable(logger: Logger, retryAfterSeconds: number): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent || !isTransientDatabaseError(error)) {
      next(error);
      return;
    }
    logger.warn({ cause: String(error) }, 'gateway database unavailable; answered 503');
    sendProblem(
      res,
      new HttpProblem(503, "the gateway's database is unavailable; retry shortly", {
        headers: { 'Retry-After': String(retryAfterSeconds) },
      }),
    );
  };
}
