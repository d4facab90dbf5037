// Generated code lives in ./generated (run `npm run proto`); this file only gathers it.
export * as referenceV1 from './generated/reference/v1/reference';
export * as catalogueV1 from './generated/reference/v1/catalogue';
export * as financeV1 from './generated/finance/v1/finance';
export * as auditV1 from './generated/audit/v1/audit';
export * as schedulingV1 from './generated/scheduling/v1/scheduling';
export { auditEventSchema, type AuditEvent } from './audit-event';
export { canonicalJson } from './canonical-json';
export { DEMO_USER_IDS } from './demo-users';
