import { WEBHOOK_LIMITS } from '@libs/contracts';
import { queryInteger } from '../platform/routing/query-fields';
import { byId } from '../platform/routing/path-ids';
import { problem } from '../platform/routing/responses';
import { urlRefusedProblem } from './schemas';

/** What the webhooks area's declarations share (docs/WEBHOOKS.md, "The API"). */

export const tag = 'Webhooks';
/** Every role may own endpoints; what they receive is narrowed by the owner's role (a reader: pings only). */
export const access = { key: 'webhooks:manage' } as const;

export const ENDPOINTS_PATH = '/api/v1/webhooks/endpoints';
export const byEndpoint = byId('Webhook endpoint');

export const limit = queryInteger(WEBHOOK_LIMITS.page).meta({ description: 'Page size.' });

/** Another user's endpoint is as absent as a missing one: a 403 would tell that it exists. */
export const endpointNotFound = { '404': problem('No such endpoint among yours (an admin: among anyone’s).') };

export const urlRefused = {
  '422': {
    description: 'The URL is refused by the address policy (`webhook_url_refused`): `rule` names the rule it broke.',
    content: { 'application/problem+json': urlRefusedProblem },
  },
};
