/** AMQP headers set on every message, so the consumer can continue the request's trail. */
export const MESSAGE_HEADERS = {
  requestId: 'x-request-id',
  /** W3C trace context of the call that caused the message. */
  traceParent: 'traceparent',
} as const;
