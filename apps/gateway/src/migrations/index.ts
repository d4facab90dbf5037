import type { Migration } from '@libs/db';
import { m0001UsersAndKeys } from './0001-users-and-keys';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [m0001UsersAndKeys];
