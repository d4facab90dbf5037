import { AsyncLocalStorage } from 'node:async_hooks';

/** What follows a request across async calls in one process: logs and outgoing calls read it from here. */
export interface RequestContext {
  /** Made by this system (the gateway, or the process that started the work): never a client's word. */
  requestId: string;
  /** The X-Request-Id a client sent, when plain: logged beside ours so the client's report finds our lines. */
  clientRequestId?: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

export function currentClientRequestId(): string | undefined {
  return requestContext.getStore()?.clientRequestId;
}

// An id that came from outside (an HTTP header, gRPC metadata, an AMQP header) is kept only when it is
// short and plain: anything else (newlines, 100 KB of junk) could forge log lines or break a header.
const PLAIN_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The given request id if it is plain enough to pass on and log, else undefined (make a new one). */
export function plainRequestId(given: unknown): string | undefined {
  return typeof given === 'string' && PLAIN_REQUEST_ID.test(given) ? given : undefined;
}
