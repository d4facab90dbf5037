/** AMQP headers set on every message, so the consumer can continue the request's trail. */
export const MESSAGE_HEADERS = {
  requestId: 'x-request-id',
} as const;
