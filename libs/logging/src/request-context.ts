import { AsyncLocalStorage } from 'node:async_hooks';

/** What follows a request across async calls in one process: logs and outgoing calls read it from here. */
export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
