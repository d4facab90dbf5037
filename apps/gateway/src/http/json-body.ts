import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import { HttpProblem, type ProblemFieldError } from '@libs/http-problems';

/**
 * Requests that carry a body must say it is JSON. `req.is` answers null when
 * there is no body at all (`curl -X POST url`), which is fine for the
 * operations whose body is optional; the route then sees no body.
 */
export function requireJsonBody(): RequestHandler {
  return (req, _res, next) => {
    if (['POST', 'PUT', 'PATCH'].includes(req.method) && req.get('content-length') !== '0' && req.is('application/json') === false) {
      throw new HttpProblem(415, 'send the body as application/json');
    }
    next();
  };
}

function fieldErrors(error: z.ZodError): ProblemFieldError[] {
  return error.issues.flatMap((issue) => {
    const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: at ? `${at}.${key}` : key, message: 'is not a known field' }));
    }
    return [{ field: at || '(body)', message: issue.message }];
  });
}

/** Parses the JSON body against a strict schema: wrong types and unknown fields are a 400 naming each field. */
export function parseBody<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const result = schema.safeParse(req.body);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  throw HttpProblem.badRequest(errors.map((e) => `${e.field} ${e.message}`).join('; '), errors);
}
