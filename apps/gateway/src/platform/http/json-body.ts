import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { fieldErrorsOf, PUBLIC_BODY_LIMIT_BYTES } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';

type BodyReader = (req: Request, res: Response) => Promise<unknown>;

interface BodyReaders {
  /** For operations behind a key or session: up to BODY_LIMIT_BYTES. */
  keyed: BodyReader;
  public: BodyReader;
}

function reader(limitBytes: number): BodyReader {
  const parse = express.json({ limit: limitBytes });
  return (req, res) => {
    // No body at all (`curl -X POST url` sends no length, fetch sends 0): the operation sees none.
    // `req.is` answers null for the first, but false for the second.
    if (req.get('content-length') !== '0' && req.is('application/json') === false) {
      throw new HttpProblem(415, 'send the body as application/json');
    }
    // Refused here, unread: the JSON parser would read the whole body to its end first, however long, then answer.
    // (A body with no length, chunked, it reads to the limit, then still to the end, within the request timeout.)
    if (Number(req.get('content-length')) > limitBytes) throw HttpProblem.bodyTooLarge(limitBytes);
    return new Promise((resolve, reject) => parse(req, res, (error?: unknown) => (error ? reject(error) : resolve(req.body))));
  };
}

/**
 * Reads nothing: it hands the request the readers that parseBody uses. A body
 * is read only when an operation takes one (platform/routing/mount.ts), which is after the
 * route's key and permission checks, so that a request without a valid key
 * never costs a read, let alone a JSON parse (nor a 400 for bad JSON: a 401).
 */
export function deferredJsonBody(limitBytes: number): RequestHandler {
  const readers: BodyReaders = { keyed: reader(limitBytes), public: reader(Math.min(limitBytes, PUBLIC_BODY_LIMIT_BYTES)) };
  return (_req, res, next) => {
    res.locals.bodyReaders = readers;
    next();
  };
}

/**
 * Reads the JSON body and parses it against a strict schema: wrong types and
 * unknown fields are a 400 naming each field. `public` operations read less.
 */
export async function parseBody<S extends z.ZodType>(
  req: Request,
  res: Response,
  schema: S,
  access: keyof BodyReaders = 'keyed',
): Promise<z.infer<S>> {
  const body = await (res.locals.bodyReaders as BodyReaders)[access](req, res);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw HttpProblem.invalidParameters(fieldErrorsOf(result.error));
}
