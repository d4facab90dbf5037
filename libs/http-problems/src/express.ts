import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from '@libs/logging';
import { closeAfterAnswer } from './lingering-close';
import { operationOutcome } from './operation-outcome';
import { HttpProblem } from './problem';

function requestIdOf(res: Response): string | undefined {
  return typeof res.locals.requestId === 'string' ? res.locals.requestId : undefined;
}

/** A body the client is still sending: refused before anything read it, or cut short by a size limit. */
function unreadBody(req: Request): boolean {
  const declared = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  return declared && !req.complete;
}

/** Set by a request whose client asked for FHIR (`res.locals.problemFormat = 'fhir'`): its errors are OperationOutcomes. */
export type ProblemFormat = 'problem' | 'fhir';

export function sendProblem(res: Response, problem: HttpProblem): void {
  for (const [name, value] of Object.entries(problem.options.headers ?? {})) res.setHeader(name, value);
  // The connection cannot carry another request: the rest of the body is dropped, not read as one.
  if (unreadBody(res.req)) closeAfterAnswer(res);
  res.status(problem.status);
  if ((res.locals.problemFormat as ProblemFormat | undefined) === 'fhir') {
    res.type('application/fhir+json').send(JSON.stringify(operationOutcome(problem, requestIdOf(res))));
  } else {
    res.type('application/problem+json').send(JSON.stringify(problem.body(requestIdOf(res))));
  }
}

/** Errors raised by express.json() carry a `type`; map them to what the client did wrong. */
function fromBodyParser(error: { type?: string; status?: number; limit?: number }): HttpProblem | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return HttpProblem.badRequest('the request body is not valid JSON');
    case 'entity.too.large':
      return HttpProblem.bodyTooLarge(error.limit ?? 0);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpProblem(415, 'the request body must be UTF-8 JSON');
    case 'request.aborted':
      return HttpProblem.badRequest('the client aborted the request');
    default:
      return typeof error.status === 'number' && error.status >= 400 && error.status < 500
        ? new HttpProblem(error.status, 'the request could not be read')
        : undefined;
  }
}

export function notFoundHandler(): RequestHandler {
  return (req: Request, _res, next) => next(HttpProblem.notFound(`no route for ${req.method} at this path`));
}

/** The last middleware: every error leaves as problem+json, and a 500 never carries internals. */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const problem =
      error instanceof HttpProblem ? error : fromBodyParser((error ?? {}) as Record<string, never>);
    if (problem) {
      sendProblem(res, problem);
      return;
    }
    logger.error({ err: error }, 'unhandled error');
    sendProblem(res, new HttpProblem(500, 'an internal error occurred; quote the requestId when reporting it'));
  };
}
