import type { Migration } from '@libs/db';
import { m0001Webhooks } from './0001-webhooks';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [m0001Webhooks];
