import { HttpProblem } from '@libs/http-problems';

/** A 401: every one carries the challenge, whether the gateway or a service refused the credentials. */
export const unauthorized = (detail: string) =>
  new HttpProblem(401, detail, { headers: { 'WWW-Authenticate': 'Bearer realm="api"' } });
