import type { Migration } from '@libs/db';
import { m0001Diseases } from './0001-diseases';
import { m0002Catalogue } from './0002-catalogue';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [m0001Diseases, m0002Catalogue];
