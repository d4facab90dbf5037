import type { AuditedEntityType } from './audited-entities';

/** The service whose exchange (`<source>.events`) carries an event type; `webhooks` for the notifications service's own. */
export type EventSource = 'finance' | 'scheduling' | 'identity' | 'webhooks';

export interface EventTypeDeclaration {
  source: EventSource;
  /** The entity the event's ids name (AUDITED_ENTITIES); none for a ping. */
  entityType?: AuditedEntityType;
  /** Whether the event names many entities (a bulk operation): a webhook then carries their ids, not one URL. */
  bulk?: boolean;
  /** What happened, for the catalogue an API client reads. */
  description: string;
}

/**
 * Every kind of change the services publish, under the name its event carries: the audit log's `action` and a
 * webhook's `type`. One list, from which the webhook catalogue (`ListEventTypes`), the notifications service's
 * fan-out and the docs' tables follow; a change of another kind gets its own entry here, never a reused one (a
 * reschedule is not a cancellation).
 */
export const EVENT_TYPES = {
  'transaction.created': { source: 'finance', entityType: 'transaction', description: 'a transaction was recorded' },
  'transaction.updated': { source: 'finance', entityType: 'transaction', description: 'a transaction was changed' },
  'transaction.deleted': { source: 'finance', entityType: 'transaction', description: 'a transaction was deleted' },
  'transaction.reversed': { source: 'finance', entityType: 'transaction', description: 'a transaction was reversed by a linked opposite one' },
  'transaction.bulk_created': { source: 'finance', entityType: 'transaction', bulk: true, description: 'transactions were recorded in one request' },
  'transaction.bulk_deleted': { source: 'finance', entityType: 'transaction', bulk: true, description: 'transactions were deleted in one request' },
  'payment.submitted': { source: 'finance', entityType: 'payment', description: 'a proof of payment was submitted' },
  'payment.processed': { source: 'finance', entityType: 'payment', description: 'a payment was accepted or rejected' },
  'payment.resolved': { source: 'finance', entityType: 'payment', description: 'a payment awaiting a decision was resolved' },
  'payment.reversed': { source: 'finance', entityType: 'payment', description: 'an accepted payment was taken back' },
  'account.created': { source: 'finance', entityType: 'account', description: 'an account was created' },
  'account.updated': { source: 'finance', entityType: 'account', description: 'an account was changed' },
  'category.created': { source: 'finance', entityType: 'category', description: 'a category was created' },
  'category.updated': { source: 'finance', entityType: 'category', description: 'a category was changed' },
  'student.created': { source: 'finance', entityType: 'student', description: 'a student record was created' },
  'student.updated': { source: 'finance', entityType: 'student', description: 'a student record was changed' },
  'registration_number.created': { source: 'finance', entityType: 'registration_number', description: 'a registration number was issued' },
  'statement.line_added': { source: 'finance', entityType: 'financial_statement', description: "a line was added to a student's statement" },
  'appointment.held': { source: 'scheduling', entityType: 'appointment', description: 'a slot was held for an appointment' },
  'appointment.booked': { source: 'scheduling', entityType: 'appointment', description: 'an appointment was booked' },
  'appointment.confirmed': { source: 'scheduling', entityType: 'appointment', description: 'a held appointment was confirmed' },
  'appointment.released': { source: 'scheduling', entityType: 'appointment', description: 'a hold was released' },
  'appointment.expired': { source: 'scheduling', entityType: 'appointment', description: 'a hold ran out' },
  'appointment.rescheduled': { source: 'scheduling', entityType: 'appointment', description: 'an appointment moved to another time' },
  'appointment.cancelled': { source: 'scheduling', entityType: 'appointment', description: 'an appointment was cancelled' },
  'appointment.checked_in': { source: 'scheduling', entityType: 'appointment', description: 'the student checked in' },
  'appointment.completed': { source: 'scheduling', entityType: 'appointment', description: 'an appointment was completed' },
  'appointment.no_show': { source: 'scheduling', entityType: 'appointment', description: 'the student did not come' },
  'appointment.no_show_reverted': { source: 'scheduling', entityType: 'appointment', description: 'a no-show was taken back' },
  'appointment.entered_in_error': { source: 'scheduling', entityType: 'appointment', description: 'an appointment was marked as entered in error' },
  'appointment.reminder': { source: 'scheduling', entityType: 'appointment', description: "an appointment's reminder fell due (one per offset of its policy, for the booking's version)" },
  'location.enabled': { source: 'scheduling', entityType: 'location', description: 'a premise became bookable' },
  'location.updated': { source: 'scheduling', entityType: 'location', description: "a location's time zone or name changed" },
  'resource.created': { source: 'scheduling', entityType: 'resource', description: 'a resource was created' },
  'resource.updated': { source: 'scheduling', entityType: 'resource', description: 'a resource was changed' },
  'service.created': { source: 'scheduling', entityType: 'service', description: 'a service was created' },
  'service.updated': { source: 'scheduling', entityType: 'service', description: 'a service was changed' },
  'schedule.rules_replaced': { source: 'scheduling', entityType: 'schedule', description: "a resource's weekly hours were replaced" },
  'schedule.override_set': { source: 'scheduling', entityType: 'schedule', description: "a resource's hours on one date were set" },
  'schedule.override_deleted': { source: 'scheduling', entityType: 'schedule', description: "a resource's hours on one date were reset" },
  'block.created': { source: 'scheduling', entityType: 'block', description: 'time was blocked on a resource' },
  'block.deleted': { source: 'scheduling', entityType: 'block', description: 'a block was removed' },
  'user.registered': { source: 'identity', entityType: 'user', description: 'an account was created' },
  'user.email_verified': { source: 'identity', entityType: 'user', description: "an account's email address was proved" },
  'user.role_changed': { source: 'identity', entityType: 'user', description: "an account's role was changed" },
  'user.password_changed': { source: 'identity', entityType: 'user', description: "an account's password was changed or reset" },
  'user.sessions_revoked': { source: 'identity', entityType: 'user', description: "every session of an account was ended" },
  'key.created': { source: 'identity', entityType: 'api_key', description: 'an API key was created' },
  'key.revoked': { source: 'identity', entityType: 'api_key', description: 'an API key was revoked' },
  'key.limits_changed': { source: 'identity', entityType: 'api_key', description: "an admin changed an API key's limits" },
  'webhook.ping': { source: 'webhooks', description: 'a test delivery, sent to one endpoint when its owner asks' },
} as const satisfies Record<string, EventTypeDeclaration>;

export type EventType = keyof typeof EVENT_TYPES;

/** What a `webhook.ping` points to: the endpoint it was sent to, where the webhook API serves it. */
export const PING_OBJECT = {
  type: 'webhook_endpoint',
  path: (endpointId: string) => `/api/v1/webhooks/endpoints/${encodeURIComponent(endpointId)}`,
} as const;

export const isEventType = (name: string): name is EventType => Object.hasOwn(EVENT_TYPES, name);

/** Where the API serves each entity, by its id (and, for a statement line, the student it belongs to). */
const ENTITY_PATHS: Record<AuditedEntityType, (id: string, snapshot: Record<string, unknown>) => string> = {
  transaction: (id) => `/api/v1/transactions/${id}`,
  payment: (id) => `/api/v1/transactions/payments/${id}`,
  account: (id) => `/api/v1/finance/accounts/${id}`,
  category: (id) => `/api/v1/finance/categories/${id}`,
  registration_number: (id) => `/api/v1/finance/registration-numbers/${id}`,
  student: (id) => `/api/v1/finance/students/${id}`,
  financial_statement: (_id, line) => `/api/v1/finance/students/${String(line.studentId)}/statement`,
  location: (premiseId) => `/api/v1/scheduling/locations/${premiseId}`,
  resource: (id) => `/api/v1/scheduling/resources/${id}`,
  service: (id) => `/api/v1/scheduling/services/${id}`,
  schedule: (resourceId) => `/api/v1/scheduling/schedules/${resourceId}/rules`,
  block: (id) => `/api/v1/scheduling/blocks/${id}`,
  appointment: (id) => `/api/v1/appointments/${id}`,
  user: (id) => `/api/v1/auth/users/${id}`,
  api_key: (id) => `/api/v1/auth/keys/${id}`,
};

/** The API path of one entity, from its id and its snapshot (the event's `after`, or `before` once deleted). */
export const entityPath = (entityType: AuditedEntityType, id: string, snapshot: Record<string, unknown>): string =>
  ENTITY_PATHS[entityType](encodeURIComponent(id), snapshot);
