import type { Migration } from '@libs/db';
import { m0001UsersAndKeys } from './0001-users-and-keys';
import { m0002SessionsAndLoginThrottle } from './0002-sessions-and-login-throttle';
import { m0003KeyLimits } from './0003-key-limits';
import { m0004ClinicianRole } from './0004-clinician-role';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [m0001UsersAndKeys, m0002SessionsAndLoginThrottle, m0003KeyLimits, m0004ClinicianRole];
