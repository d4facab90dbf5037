import type { z } from 'zod';
import type * as financeV1 from './generated/finance/v1/finance';
import type * as schedulingV1 from './generated/scheduling/v1/scheduling';
import {
  accountJson,
  categoryJson,
  paymentJson,
  registrationNumberJson,
  statementLineJson,
  studentJson,
  toAccountJson,
  toCategoryJson,
  toPaymentJson,
  toRegistrationNumberJson,
  toStatementLineJson,
  toStudentJson,
  toTransactionJson,
  transactionJson,
} from './finance-entities';
import {
  appointmentJson,
  blockJson,
  locationJson,
  resourceJson,
  scheduleJson,
  serviceJson,
  toAppointmentJson,
  toBlockJson,
  toLocationJson,
  toResourceJson,
  toScheduleJson,
  toServiceJson,
} from './scheduling-entities';
import { apiKeyJson, toApiKeyJson, toUserJson, userJson, type ApiKeySnapshot, type UserSnapshot } from './identity-entities';

/**
 * Every entity type an audit event may name, with the JSON shape its `before`/`after` hold (the
 * API's shape of that entity) and how the service that owns it (finance, scheduling) makes it from the
 * entity's gRPC message; the gateway's identity area holds its users and keys in that shape already.
 */
export const AUDITED_ENTITIES = {
  transaction: { schema: transactionJson, toJson: toTransactionJson },
  payment: { schema: paymentJson, toJson: toPaymentJson },
  account: { schema: accountJson, toJson: toAccountJson },
  category: { schema: categoryJson, toJson: toCategoryJson },
  registration_number: { schema: registrationNumberJson, toJson: toRegistrationNumberJson },
  student: { schema: studentJson, toJson: toStudentJson },
  financial_statement: { schema: statementLineJson, toJson: toStatementLineJson },
  location: { schema: locationJson, toJson: toLocationJson },
  resource: { schema: resourceJson, toJson: toResourceJson },
  service: { schema: serviceJson, toJson: toServiceJson },
  schedule: { schema: scheduleJson, toJson: toScheduleJson },
  block: { schema: blockJson, toJson: toBlockJson },
  appointment: { schema: appointmentJson, toJson: toAppointmentJson },
  user: { schema: userJson, toJson: toUserJson },
  api_key: { schema: apiKeyJson, toJson: toApiKeyJson },
} as const;

export type AuditedEntityType = keyof typeof AUDITED_ENTITIES;

/** The gRPC message of an audited entity, as its service holds it when it records the change. */
export type EntityMessage<E extends AuditedEntityType> = {
  transaction: financeV1.Transaction;
  payment: financeV1.Payment;
  account: financeV1.Account;
  category: financeV1.Category;
  registration_number: financeV1.RegistrationNumber;
  student: financeV1.Student;
  financial_statement: financeV1.StatementLine;
  location: schedulingV1.Location;
  resource: schedulingV1.Resource;
  service: schedulingV1.Service;
  schedule: schedulingV1.WeeklyRules | schedulingV1.DateOverride;
  block: schedulingV1.Block;
  appointment: schedulingV1.Appointment;
  user: UserSnapshot;
  api_key: ApiKeySnapshot;
}[E];

export type EntityJson<E extends AuditedEntityType> = z.infer<(typeof AUDITED_ENTITIES)[E]['schema']>;

/** What `before` or `after` holds: one entity, a list of them (bulk operations), or null (nothing before a create, after a delete). */
export type Snapshot<T> = T | T[] | null;

/** The audit snapshot of entity messages, in the API's shape. */
export function snapshotJson<E extends AuditedEntityType>(entityType: E, value: Snapshot<EntityMessage<E>>): Snapshot<EntityJson<E>> {
  // The table pairs each type with its converter; TypeScript cannot follow the pairing through the index.
  const toJson = AUDITED_ENTITIES[entityType].toJson as unknown as (message: EntityMessage<E>) => EntityJson<E>;
  if (value === null) return null;
  return Array.isArray(value) ? value.map(toJson) : toJson(value);
}

/**
 * The version of the event, carried as its `schemaVersion`. Events without it (version 1, written before it
 * existed) held the gRPC message as JSON: amounts as strings, "" for absent values. Raise it whenever an
 * entity's JSON shape changes in a way old readers would misread, and teach the audit service's reader to show
 * the older versions in the new shape; or when the event gains a field. Version 3 differs from 2 only in that
 * free text left empty (a transaction's `notes`, a payment's `description` and `note`) is null where version 2
 * wrote "": both fit the schema, so version 2 is shown as stored. Version 4 adds `subjects` (SUBJECTS_VERSION);
 * its `before`/`after` are those of version 3.
 */
export const AUDIT_SCHEMA_VERSION = 4;

/** The first version whose events carry `subjects`: from it on they must, before it they cannot. */
export const SUBJECTS_VERSION = 4;
