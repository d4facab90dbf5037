import type { Response } from 'express';
import { HttpProblem } from '@libs/http-problems';
import { etagOf } from './if-match';

/**
 * How an area hands on the record a service answered with, for the service it calls: an answer without the
 * record is that service's fault (a 500 naming it), and a versioned record goes out with its ETag.
 */
export function recordResponses(service: string) {
  const returned = <M>(message: M | undefined): M => {
    if (!message) throw new HttpProblem(500, `the ${service} service returned no record`);
    return message;
  };
  const sendRecord = <M extends object>(res: Response, message: M | undefined, toJson: (record: M) => unknown, status = 200): void => {
    const record = returned(message);
    if ('version' in record && typeof record.version === 'number') res.setHeader('ETag', etagOf(record.version));
    res.status(status).json(toJson(record));
  };
  return { returned, sendRecord };
}
