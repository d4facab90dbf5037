/** AMQP message headers set on audit events. */
export const AUDIT_EVENT_HEADERS = {
  requestId: 'x-request-id',
} as const;
