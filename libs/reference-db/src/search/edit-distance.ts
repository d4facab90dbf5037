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
 * Of two terms equally many edits away, the one reached by likelier slips
 * wins. A dropped letter, a doubled one and a swap of neighbours each happen
 * one way; a wrong letter is one of 25 that could have been typed, and an
 * extra letter that repeats neither of its neighbours is no doubling at all:
 * both are uncommon. Each edit costs EDIT, and an uncommon one 1 more. EDIT
 * exceeds any count of uncommon edits (at most |query| + |term|, a few
 * hundred), so the alignment with the fewest edits is found first and, among
 * those, the one with the fewest uncommon edits: "stolyses" is nearer
 * "osteolyses" (two dropped letters) than "autolyses" (a dropped letter and a
 * wrong one).
 */
const EDIT = 4096;
const UNCOMMON = 1;

/** The three rows of the table, reused from call to call (a search ranks hundreds of terms) and grown as needed. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Edits (insert, delete, substitute, swap of neighbours) that turn `query` into
 * `term`, and into the best prefix of `term`: the typo model of the search.
 * One O(|query|·|term|) table; both strings are short (names and synonyms).
 */
export function editDistances(query: string, term: string): EditDistances {
  const m = query.length;
  const n = term.length;
  if (rows[0].length <= n) rows = [0, 1, 2].map(() => new Int32Array(2 * (n + 1)));
  // Three rows suffice: a swap looks back two rows.
  let [previous2, previous, current] = rows;
  for (let j = 0; j <= n; j++) previous[j] = j * EDIT;
  for (let i = 1; i <= m; i++) {
    const q = query.charCodeAt(i - 1);
    const q2 = i > 1 ? query.charCodeAt(i - 2) : -1;
    // A letter typed that the term does not have: common when it doubles a neighbour ("synndrome").
    const extra = EDIT + (q === q2 || q === query.charCodeAt(i) ? 0 : UNCOMMON);
    current[0] = previous[0] + extra;
    for (let j = 1; j <= n; j++) {
      const t = term.charCodeAt(j - 1);
      let best = Math.min(previous[j] + extra, current[j - 1] + EDIT, previous[j - 1] + (q === t ? 0 : EDIT + UNCOMMON));
      if (j > 1 && q === term.charCodeAt(j - 2) && q2 === t) best = Math.min(best, previous2[j - 2] + EDIT);
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
