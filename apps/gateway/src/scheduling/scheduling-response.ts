import type { Response } from 'express';
import { HttpProblem } from '@libs/http-problems';
import { etagOf } from '../platform/http/if-match';

/** The record a service answer carries; an answer without it is the service's fault. */
export function returned<M>(message: M | undefined): M {
  if (!message) throw new HttpProblem(500, 'the scheduling service returned no record');
  return message;
}

/** Sends one versioned record with its ETag. */
export function sendVersioned<M extends { version: number }>(res: Response, message: M | undefined, toJson: (m: M) => unknown, status = 200): void {
  const record = returned(message);
  res.status(status).setHeader('ETag', etagOf(record.version)).json(toJson(record));
}

/** A list page as the API shows it: `nextCursor` only while more follow. */
export const nextCursorOf = (nextCursor: string) => (nextCursor ? { nextCursor } : {});
