import { FINANCE_LIMITS } from '@libs/contracts';
import { queryInteger } from '../platform/routing/query-fields';

/** What the transaction and payment declarations share. */

export const tag = 'Finance';

export const limit = queryInteger(FINANCE_LIMITS.page).meta({ description: 'Page size.' });
