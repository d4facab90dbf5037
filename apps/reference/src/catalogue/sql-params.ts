/** Collects bind parameters for a hand-built statement; add() returns the placeholder to put in the SQL. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A LIKE pattern matching `term` anywhere, its own % _ and \ taken literally. */
export const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * `(column ILIKE $1 OR column ILIKE $2 …)` for the terms, or TRUE without any.
 * Each ILIKE is served by the column's trigram GIN index (one bitmap scan per term).
 */
export function anyContains(params: SqlParams, column: string, terms: readonly string[]): string {
  if (terms.length === 0) return 'TRUE';
  return `(${terms.map((term) => `${column} ILIKE ${params.add(containsPattern(term))}`).join(' OR ')})`;
}
