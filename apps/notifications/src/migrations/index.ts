import type { Migration } from '@libs/db';
import { m0001Webhooks } from './0001-webhooks';
import { m0002Mail } from './0002-mail';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [m0001Webhooks, m0002Mail];
