/** What the webhook API specs share: its calls through the gateway, and waiting for a receiver. */
import { waitFor, type RunningSystem } from '@libs/testing';
import { api, validTransaction, type ApiResponse } from '../http';

export const ENDPOINTS = '/api/v1/webhooks/endpoints';

export const problemType = (type: string) => `urn:clinical-reference:problem:${type}`;

export function webhookApi(system: RunningSystem, key: string) {
  const call = (path: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    api(system.gatewayUrl, path, { key, ...options });
  return {
    create: (body: unknown, headers?: Record<string, string>) => call(ENDPOINTS, { method: 'POST', body, headers }),
    list: (query = '') => call(`${ENDPOINTS}${query}`),
    get: (id: string) => call(`${ENDPOINTS}/${id}`),
    update: (id: string, body: unknown, headers?: Record<string, string>) => call(`${ENDPOINTS}/${id}`, { method: 'PATCH', body, headers }),
    remove: (id: string) => call(`${ENDPOINTS}/${id}`, { method: 'DELETE' }),
    rotate: (id: string, headers?: Record<string, string>) => call(`${ENDPOINTS}/${id}/rotate-secret`, { method: 'POST', headers }),
    test: (id: string, headers?: Record<string, string>) => call(`${ENDPOINTS}/${id}/test`, { method: 'POST', headers }),
    recover: (id: string, since: string, headers?: Record<string, string>) =>
      call(`${ENDPOINTS}/${id}/recover`, { method: 'POST', body: { since }, headers }),
    deliveries: (id: string, query = '') => call(`${ENDPOINTS}/${id}/deliveries${query}`),
    retry: (deliveryId: string) => call(`/api/v1/webhooks/deliveries/${deliveryId}/retry`, { method: 'POST' }),
    eventTypes: () => call('/api/v1/webhooks/event-types'),
    /** GET of a path a payload's `url` names, with this key: what the receiver reads next. */
    read: (url: string) => call(new URL(url).pathname),
  };
}

export type WebhookApi = ReturnType<typeof webhookApi>;

/** A finance change: a transaction recorded with the bursar's key. */
export async function recordTransaction(system: RunningSystem, payee: string): Promise<ApiResponse['body']> {
  const created = await api(system.gatewayUrl, '/api/v1/transactions', { method: 'POST', key: system.keys.bursar, body: validTransaction({ payee }) });
  if (created.status !== 201) throw new Error(`recording a transaction answered ${created.status}`);
  return created.body;
}

/** Waits until `list()` holds at least `count` items, and answers them. */
export const atLeast = <T>(what: string, count: number, list: () => T[], timeoutMs?: number): Promise<T[]> =>
  waitFor(what, async () => (list().length >= count ? list() : undefined), timeoutMs);

/** Waits until the endpoint's deliveries log answers one that `done` accepts. */
export async function deliveryWhere(
  webhooks: WebhookApi,
  endpointId: string,
  done: (delivery: ApiResponse['body']) => boolean,
): Promise<ApiResponse['body']> {
  return waitFor(`a delivery of ${endpointId} in the wanted state`, async () => {
    const { body } = await webhooks.deliveries(endpointId);
    return (body.deliveries as ApiResponse['body'][]).find(done);
  });
}
