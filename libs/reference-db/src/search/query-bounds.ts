/**
 * What of a fuzzy query is searched: its first MAX_QUERY_WORDS words, each cut
 * at MAX_WORD_LENGTH letters. A word is what pg_trgm takes trigrams from, a run
 * of letters and digits; the text between words makes no trigrams and stays.
 *
 * Both bounds sit just above the real names (docs/SEARCH.md): of the CTD names
 * and synonyms that fit the 200-character limit, the longest has 23 words, and
 * the longest word has 31 letters; one more of each leaves room for a typo
 * (a space typed inside a word, a doubled letter). So no real name is ever cut,
 * while a random 200-letter word is searched as 32 letters (a third of the
 * trigrams, and the planner's estimate of `<%` evaluates each sampled term
 * against the whole query).
 */
export const MAX_QUERY_WORDS = 24;
export const MAX_WORD_LENGTH = 32;

const WORD = /[\p{L}\p{N}]+/gu;

export function boundedQuery(query: string): string {
  let bounded = '';
  let from = 0;
  let words = 0;
  for (const match of query.matchAll(WORD)) {
    if (words === MAX_QUERY_WORDS) return bounded;
    words += 1;
    // Code points, so that a letter outside the BMP is never cut in half.
    bounded += query.slice(from, match.index) + [...match[0]].slice(0, MAX_WORD_LENGTH).join('');
    from = match.index + match[0].length;
  }
  return bounded + query.slice(from);
}
