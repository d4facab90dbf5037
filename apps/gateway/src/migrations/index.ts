import { ROLES } from '@libs/contracts';
import type { Migration } from '@libs/db';
import { outboxPayloadBytes } from '@libs/outbox';
import { m0001UsersAndKeys } from './0001-users-and-keys';
import { m0002SessionsAndLoginThrottle } from './0002-sessions-and-login-throttle';
import { m0003KeyLimits } from './0003-key-limits';
import { m0004ClinicianRole } from './0004-clinician-role';
import { m0005RolesTable } from './0005-roles-table';
import { m0006IdentityEventsAndVerification } from './0006-identity-events-and-verification';
import { knownRoles } from './known-roles';

/** Every migration, in order. Never edit one that has shipped: add the next, before `knownRoles`. */
export const migrations: Migration[] = [
  m0001UsersAndKeys,
  m0002SessionsAndLoginThrottle,
  m0003KeyLimits,
  m0004ClinicianRole,
  m0005RolesTable,
  m0006IdentityEventsAndVerification,
  outboxPayloadBytes('0007-outbox-payload-bytes'),
  knownRoles(ROLES),
];
