/**
 * A timestamp as a keyset position, to the microsecond PostgreSQL keeps: a JS Date keeps milliseconds only, and a
 * cursor cut to them would repeat or skip the rows of the same millisecond at a page's edge.
 */
export const positionOf = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
