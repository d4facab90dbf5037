/**
 * Misspellings as people make them, for the benchmark's fuzzy queries
 * (realistic-queries.ts, docs/SEARCH.md "Quality"): one edit under 9
 * characters, one or two (even odds) from 9 on; each edit a slip of a real
 * keyboard: a neighbouring key pressed instead (QWERTY), two neighbours
 * swapped, a letter dropped or doubled. A fifth of the queries carry their
 * first edit at the first letter, which loses the word's leading trigrams
 * ("  d", " di") and so is the hardest case for the trigram index.
 * typos.ts, the older model, mistypes any letter for any other and always
 * makes the most edits allowed.
 */

const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Keys touching each letter key: left and right on its row, and the two or three above and below (rows are offset). */
const NEIGHBOURS: Record<string, string> = (() => {
  const at = new Map<string, [number, number]>();
  ROWS.forEach((row, r) => [...row].forEach((key, c) => at.set(key, [r, c])));
  const neighbours: Record<string, string> = {};
  for (const [key, [r, c]] of at) {
    neighbours[key] = [...at]
      .filter(([other, [r2, c2]]) => other !== key && Math.abs(r2 - r) <= 1 && (r2 === r ? Math.abs(c2 - c) === 1 : c2 - c >= (r2 > r ? -1 : 0) && c2 - c <= (r2 > r ? 0 : 1)))
      .map(([other]) => other)
      .join('');
  }
  return neighbours;
})();

const isLetter = (c: string) => /\p{L}/u.test(c);
/** Indexes of the letters (a half of a surrogate pair is none). */
const letterIndexes = (text: string) => [...Array(text.length).keys()].filter((i) => isLetter(text[i]));

/** The kinds of slip, each as likely as the others. */
export const TYPO_KINDS = ['neighbour', 'swap', 'drop', 'double'] as const;
export type TypoKind = (typeof TYPO_KINDS)[number];

/** One slip at `at` (a letter's index), or undefined when that kind cannot happen there (a swap at the last letter). */
export function slip(text: string, at: number, kind: TypoKind, random: () => number): string | undefined {
  const c = text[at];
  switch (kind) {
    case 'neighbour': {
      const keys = NEIGHBOURS[c.toLowerCase()];
      if (!keys) return undefined;
      return text.slice(0, at) + keys[Math.floor(random() * keys.length)] + text.slice(at + 1);
    }
    case 'swap':
      if (at + 1 >= text.length || !isLetter(text[at + 1]) || text[at + 1] === c) return undefined;
      return text.slice(0, at) + text[at + 1] + c + text.slice(at + 2);
    case 'drop':
      return text.slice(0, at) + text.slice(at + 1);
    case 'double':
      return text.slice(0, at + 1) + c + text.slice(at + 1);
  }
}

/** Share of queries whose first edit is at the first letter. */
const FIRST_LETTER_SHARE = 0.2;

export const realisticEditCount = (text: string, random: () => number) => (text.length < 9 ? 1 : random() < 0.5 ? 1 : 2);

/** The text with one or two realistic slips; never the text itself, case aside. */
export function realisticMisspelling(text: string, random: () => number): string {
  if (letterIndexes(text).length < 2) throw new Error(`"${text}" has too few letters to misspell`);
  const edits = realisticEditCount(text, random);
  const atFirst = random() < FIRST_LETTER_SHARE;
  for (;;) {
    let result = text;
    for (let edit = 0; edit < edits; edit++) {
      const positions = letterIndexes(result);
      const at = edit === 0 && atFirst ? positions[0] : positions[Math.floor(random() * positions.length)];
      result = slip(result, at, TYPO_KINDS[Math.floor(random() * TYPO_KINDS.length)], random) ?? result;
    }
    if (result.toLowerCase() !== text.toLowerCase()) return result;
  }
}
