import { QueryParams } from '../http/query-params';

/** Room for a comma-separated list of names; the reference service limits the terms themselves. */
const LIST_MAX_LENGTH = 2000;

/** A comma-separated list parameter (`n=potassium,sodium`) as its terms; absent → no terms. */
export const commaList = (query: QueryParams, name: string): string[] =>
  (query.string(name, { max: LIST_MAX_LENGTH }) ?? '').split(',');

/** Optional text as the JSON of the API shows it: null rather than an empty string. */
export const orNull = (value: string): string | null => (value === '' ? null : value);
