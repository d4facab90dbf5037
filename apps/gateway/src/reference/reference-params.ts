/** A comma-separated list parameter (`n=potassium,sodium`) as its terms; absent → no terms. The service limits the terms. */
export const termsOf = (list: string | undefined): string[] => (list ?? '').split(',');

/** Optional text as the JSON of the API shows it: null rather than an empty string. */
export const orNull = (value: string): string | null => (value === '' ? null : value);
