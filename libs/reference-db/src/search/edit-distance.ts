/**
 * How many typos a query may carry: one in a text under 9 characters, two from
 * 9 on (Meilisearch's rule), counted for the text it was typed from. Typos
 * that drop letters make the query shorter than that text, so a query of 7
 * characters or more may have come from one of 9 with two letters dropped.
 */
export function allowedTypos(query: string): number {
  return query.length + 2 < 9 ? 1 : 2;
}

export interface EditDistances {
  /** Optimal-string-alignment (restricted Damerau-Levenshtein) distance between query and term. */
  full: number;
  /** The same distance to the closest prefix of the term: how far the query is from the term's start. */
  prefix: number;
  /** Of the fewest edits to the whole term, how few are uncommon slips (see UNCOMMON). */
  fullUncommon: number;
  /** The same for the closest prefix. */
  prefixUncommon: number;
}

/**
 * A dropped letter, a doubled one and a swap of neighbours are the commonest
 * slips of the fingers; a wrong letter, or an extra letter that repeats
 * neither of its neighbours, is rarer. Each edit costs EDIT, and an uncommon
 * one 1 more: EDIT exceeds any count of uncommon edits, so the alignment with
 * the fewest edits is found first and, among those, the one with the fewest
 * uncommon edits. So "stolyses" is nearer "osteolyses" (two dropped letters)
 * than "autolyses" (a dropped and a wrong letter).
 */
const EDIT = 4096;
const UNCOMMON = 1;

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
  let previous = Array.from({ length: n + 1 }, (_, j) => j * EDIT);
  let current = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    const q = query.charCodeAt(i - 1);
    // A letter typed that the term does not have: common when it doubles a neighbour ("synndrome").
    const extra = EDIT + (q === query.charCodeAt(i - 2) || q === query.charCodeAt(i) ? 0 : UNCOMMON);
    current[0] = previous[0] + extra;
    for (let j = 1; j <= n; j++) {
      const t = term.charCodeAt(j - 1);
      let best = Math.min(previous[j] + extra, current[j - 1] + EDIT, previous[j - 1] + (q === t ? 0 : EDIT + UNCOMMON));
      if (i > 1 && j > 1 && q === term.charCodeAt(j - 2) && query.charCodeAt(i - 2) === t) {
        best = Math.min(best, previous2[j - 2] + EDIT);
      }
      current[j] = best;
    }
    [previous2, previous, current] = [previous, current, previous2];
  }
  let prefix = previous[0];
  for (let j = 1; j <= n; j++) prefix = Math.min(prefix, previous[j]);
  const full = previous[n];
  return {
    full: Math.floor(full / EDIT),
    prefix: Math.floor(prefix / EDIT),
    fullUncommon: full % EDIT,
    prefixUncommon: prefix % EDIT,
  };
}
