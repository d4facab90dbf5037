import { z } from 'zod';
import { problem, type HeaderDoc, type ResponseDoc } from '../routing/responses';

/** The fields on every answer to a request made with an API key (docs/IDENTITY.md, "Limits"). */
export const rateLimitHeaders: Record<string, HeaderDoc> = {
  'RateLimit-Policy': {
    description:
      'The key\'s limits (draft-ietf-httpapi-ratelimit-headers-11): `"minute";q=<requests>;w=60, "day";q=<requests>;w=86400, "concurrency";q=<requests in flight>;qu="concurrent-requests"`.',
    schema: z.string(),
  },
  RateLimit: {
    description: 'What is left: `"minute";r=<left>;t=<seconds>, "day";r=<left>;t=<seconds to UTC midnight>, "concurrency";r=<places left>`.',
    schema: z.string(),
  },
};

export const tooManyRequests: ResponseDoc = problem(
  'Over one of the key\'s limits (type `https://iana.org/assignments/http-problem-types#quota-exceeded`, `violated-policies` names it: `minute`, `day` or `concurrency`).',
  { 'Retry-After': { description: 'Seconds until a retry can succeed.', schema: z.int().min(1) }, ...rateLimitHeaders },
);
