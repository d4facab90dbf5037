import { randomUUID } from 'node:crypto';
import type { MessageProperties } from 'amqplib';
import { plainRequestId } from '@libs/logging';

/** AMQP headers set on every message, so the consumer can continue the request's trail. */
export const MESSAGE_HEADERS = {
  requestId: 'x-request-id',
  /** W3C trace context of the call that caused the message. */
  traceParent: 'traceparent',
} as const;

// version-traceid-parentid-flags, lower-case hex (W3C Trace Context).
const TRACE_PARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The headers of a message caused by a request; a value that is not plain is left out rather than sent. */
export function messageHeaders(trail: { requestId: string; traceParent?: string | null }): Record<string, string> {
  const requestId = plainRequestId(trail.requestId);
  const traceParent = trail.traceParent ?? undefined;
  return {
    ...(requestId && { [MESSAGE_HEADERS.requestId]: requestId }),
    ...(traceParent && TRACE_PARENT.test(traceParent) && { [MESSAGE_HEADERS.traceParent]: traceParent }),
  };
}

/**
 * The request id to log a delivered message under. Anyone who can publish can put
 * anything in a header, so only a plain id is believed; else the message id, else a new one.
 */
export function requestIdOf(properties: MessageProperties): string {
  return plainRequestId(properties.headers?.[MESSAGE_HEADERS.requestId]) ?? plainRequestId(properties.messageId) ?? randomUUID();
}
