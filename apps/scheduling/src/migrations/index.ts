import type { Migration } from '@libs/db';
import { m0001Scheduling } from './0001-scheduling';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [m0001Scheduling];
