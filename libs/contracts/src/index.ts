// Generated code lives in ./generated (run `npm run proto`); this file only gathers the library's modules.
export * as referenceV1 from './generated/reference/v1/reference';
export * as catalogueV1 from './generated/reference/v1/catalogue';
export * as financeV1 from './generated/finance/v1/finance';
export * as auditV1 from './generated/audit/v1/audit';
export * as schedulingV1 from './generated/scheduling/v1/scheduling';
export * as notificationsV1 from './generated/notifications/v1/notifications';
export { auditEventFields, auditEventSchema, type AuditEvent } from './audit-event';
export { EVENT_TYPES, PING_OBJECT, entityPath, isEventType, type EventSource, type EventType, type EventTypeDeclaration } from './event-types';
export { canonicalJson } from './canonical-json';
export { DEMO_USER_IDS } from './demo-users';
export { DEMO_SCHEDULING_IDS } from './demo-scheduling';
export { BOOTSTRAP_ROLE, ROLES, SIGN_UP_ROLE, isGranted, grantedRoles, grantedRolesInProse, type Role, type Permission } from './api/access';
export * from './api/limits';
export { MEMORY_BUDGETS, prefetchWithinBudget } from './memory-budgets';
export { yearsPattern } from './api/year-pattern';
export { epochOfInstant, instantPattern } from './api/instant-pattern';
export * as financeApi from './api/finance';
export * as schedulingFields from './api/scheduling-fields';
export * as schedulingApi from './api/scheduling';
export * as appointmentsApi from './api/appointments';
export * as webhooksApi from './api/webhooks';
export { CALENDAR_STATUS } from './appointment-calendar-status';
export { reminderOffsetMs } from './api/reminder-offsets';
export { fieldErrorsOf } from './api/field-errors';
export * from './finance-entities';
export * from './scheduling-entities';
export * from './identity-entities';
export { messageOf, type Entity, type Field, type FieldKind, type RecordOf } from './reference/fields';
export { jsonOf, jsonShapeOf } from './reference/json';
export { DISEASE, type DiseaseRecord } from './reference/disease-fields';
export { BULK_DATASETS, isBulkDataset, type BulkDataset } from './reference/bulk-datasets';
export {
  CODE_SYSTEMS,
  isCodeSystem,
  isSuggestType,
  isValueSetName,
  SUGGEST_TYPES,
  VALUE_SETS,
  type CodeSystem,
  type SuggestType,
  type ValueSetName,
} from './reference/code-systems';
export {
  AUDIT_SCHEMA_VERSION,
  SUBJECTS_VERSION,
  AUDITED_ENTITIES,
  snapshotJson,
  type AuditedEntityType,
  type EntityJson,
  type EntityMessage,
  type Snapshot,
} from './audited-entities';
