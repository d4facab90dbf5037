export interface EditDistances {
  /** Optimal-string-alignment (restricted Damerau-Levenshtein) distance between query and term. */
  full: number;
  /** The same distance to the closest prefix of the term: how far the query is from the term's start. */
  prefix: number;
}

/**
 * Edits (insert, delete, substitute, swap of neighbours) that turn `query` into
 * `term`, and into the best prefix of `term`: the typo model of the search.
 * One O(|query|·|term|) table; both strings are short (names and synonyms).
 */
export function editDistances(query: string, term: string): EditDistances {
  const m = query.length;
  const n = term.length;
  // Three rows suffice: a swap looks back two rows.
  let previous2 = new Array<number>(n + 1).fill(0);
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  let current = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    current[0] = i;
    const q = query.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const t = term.charCodeAt(j - 1);
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (q === t ? 0 : 1));
      if (i > 1 && j > 1 && q === term.charCodeAt(j - 2) && query.charCodeAt(i - 2) === t) {
        best = Math.min(best, previous2[j - 2] + 1);
      }
      current[j] = best;
    }
    [previous2, previous, current] = [previous, current, previous2];
  }
  let prefix = previous[0];
  for (let j = 1; j <= n; j++) prefix = Math.min(prefix, previous[j]);
  return { full: previous[n], prefix };
}
