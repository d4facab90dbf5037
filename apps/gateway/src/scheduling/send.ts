import type { Response } from 'express';
import { HttpProblem } from '@libs/http-problems';
import { etagOf } from '../platform/http/if-match';

/** Sends one versioned record with its ETag; a service answer without it is the service's fault. */
export function sendVersioned<M extends { version: number }>(res: Response, message: M | undefined, toJson: (m: M) => unknown, status = 200): void {
  if (!message) throw new HttpProblem(500, 'the scheduling service returned no record');
  res.status(status).setHeader('ETag', etagOf(message.version)).json(toJson(message));
}

/** A list page as the API shows it: `nextCursor` only while more follow. */
export const nextCursorOf = (nextCursor: string) => (nextCursor ? { nextCursor } : {});
