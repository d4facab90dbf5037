import { z } from 'zod';
import { WEBHOOK_LIMITS, webhooksApi } from '@libs/contracts';
import { conflictOnKey, idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { cursor } from '../platform/routing/query-fields';
import { etagHeader, json, locationHeader, noContent, page, problem } from '../platform/routing/responses';
import { access, byEndpoint, endpointNotFound, ENDPOINTS_PATH, limit, tag, urlRefused } from './webhooks-operation-parts';
import { delivery, endpoint, endpointWithSecret, recoveryQueued } from './schemas';

/** Webhook endpoints: each user's own (docs/WEBHOOKS.md, "The API"). */

const ONE_ENDPOINT = `${ENDPOINTS_PATH}/{id}`;

export const createWebhookEndpoint = operation({
  method: 'post',
  path: ENDPOINTS_PATH,
  operationId: 'createWebhookEndpoint',
  summary: 'Register an endpoint; its secret is shown once',
  description: [
    `At most ${WEBHOOK_LIMITS.endpointsPerUser} endpoints a user. The URL must be https, on a public address, unless the deployment allows more; a refused URL is a 422 naming the rule.`,
    "An endpoint receives an event only when its owner could read the event's entity through the API at that moment: an admin every event, a bursar every finance event, a student or a clinician the events of records that name them, a reader only the pings they ask for.",
  ].join(' '),
  tag,
  access,
  request: { headers: idempotentWrite, body: webhooksApi.newEndpoint },
  responses: {
    '201': json('Created, with its secret; `Location` names it.', endpointWithSecret, { ...etagHeader, ...locationHeader }),
    '409': problem(
      `You have ${WEBHOOK_LIMITS.endpointsPerUser} endpoints already (\`endpoint_limit\`): delete one first. Or the Idempotency-Key was used with another request.`,
    ),
    ...urlRefused,
  },
});

export const listWebhookEndpoints = operation({
  method: 'get',
  path: ENDPOINTS_PATH,
  operationId: 'listWebhookEndpoints',
  summary: 'Your endpoints, oldest first',
  tag,
  access,
  request: { query: z.object({ limit, cursor }) },
  responses: { '200': json('A page of endpoints (never their secrets).', page('endpoints', endpoint)) },
});

export const getWebhookEndpoint = operation({
  method: 'get',
  path: ONE_ENDPOINT,
  operationId: 'getWebhookEndpoint',
  summary: 'One endpoint (never its secret)',
  tag,
  access,
  request: { path: byEndpoint },
  responses: { '200': json('The endpoint.', endpoint, etagHeader), ...endpointNotFound },
});

export const updateWebhookEndpoint = operation({
  method: 'patch',
  path: ONE_ENDPOINT,
  operationId: 'updateWebhookEndpoint',
  summary: 'Change an endpoint’s URL, description or event types, or disable and enable it',
  description: 'Enabling an endpoint the service disabled (after a 410, or 5 days of failures) clears why, and its failures count afresh.',
  tag,
  access,
  request: { path: byEndpoint, body: webhooksApi.endpointPatch },
  ifMatch: true,
  responses: { '200': json('The endpoint as it now is.', endpoint, etagHeader), ...endpointNotFound, ...urlRefused },
});

export const deleteWebhookEndpoint = operation({
  method: 'delete',
  path: ONE_ENDPOINT,
  operationId: 'deleteWebhookEndpoint',
  summary: 'Delete an endpoint, with its deliveries',
  tag,
  access,
  request: { path: byEndpoint },
  responses: { '204': noContent('Deleted: nothing more is sent to it.'), ...endpointNotFound },
});

export const rotateWebhookSecret = operation({
  method: 'post',
  path: `${ONE_ENDPOINT}/rotate-secret`,
  operationId: 'rotateWebhookSecret',
  summary: 'A new secret, shown once; the old one signs beside it for 24 hours',
  description:
    'Until `previousSecretExpiresAt` every delivery carries two signatures, one per secret, so a receiver that knows either accepts it: switch your receiver to the new secret within that time. A secret replaced earlier stops signing at once.',
  tag,
  access,
  request: { path: byEndpoint, headers: idempotentWrite },
  responses: { '200': json('The endpoint, with its new secret.', endpointWithSecret, etagHeader), ...endpointNotFound, ...conflictOnKey },
});

export const testWebhookEndpoint = operation({
  method: 'post',
  path: `${ONE_ENDPOINT}/test`,
  operationId: 'testWebhookEndpoint',
  summary: 'Send a webhook.ping to this endpoint alone',
  tag,
  access,
  request: { path: byEndpoint, headers: idempotentWrite },
  responses: {
    '202': json('Queued: its delivery, to follow in the deliveries log.', delivery),
    ...endpointNotFound,
    '409': problem('The endpoint is disabled (`endpoint_disabled`): enable it first. Or the Idempotency-Key was used with another request.'),
  },
});

export const recoverWebhookEvents = operation({
  method: 'post',
  path: `${ONE_ENDPOINT}/recover`,
  operationId: 'recoverWebhookEvents',
  summary: 'Send again every event since a time that this endpoint would have received',
  description: `For a receiver that was down or lost data: every event since \`since\` (at most ${WEBHOOK_LIMITS.retentionDays} days ago, the retention) that this endpoint would receive now is queued again, delivered before or not. Receivers deduplicate on \`webhook-id\`.`,
  tag,
  access,
  request: { path: byEndpoint, headers: idempotentWrite, body: webhooksApi.recovery },
  responses: {
    '202': json('Queued.', recoveryQueued),
    ...endpointNotFound,
    ...conflictOnKey,
  },
});
