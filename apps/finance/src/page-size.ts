import { FINANCE_LIMITS } from '@libs/contracts';

/** Rows per page of the finance lists (transactions, payments): `limit` in the API. */
export const FINANCE_PAGE = FINANCE_LIMITS.page;
