/** Rows per page of the finance lists (transactions, payments): `limit` in the API. */
export const FINANCE_PAGE = { default: 50, max: 500 };
