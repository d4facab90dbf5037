/**
 * Seeded misspellings for measuring search quality: one typo under 9
 * characters, two from 9 on, each a swap of neighbouring letters, a dropped,
 * doubled or mistyped letter (Meilisearch's typo-tolerance rule).
 */

/** mulberry32: a small, fast, seedable generator, so a run can be repeated exactly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const isLetter = (c: string) => /\p{L}/u.test(c);

export const typoCount = (text: string) => (text.length < 9 ? 1 : 2);

/** One typo at a letter before `end` (a prefix's worth of the text; the whole of it by default). */
export function oneTypo(text: string, random: () => number, end = text.length): string {
  const letters = [...text].flatMap((c, i) => (isLetter(c) && i < end ? [i] : []));
  if (letters.length === 0) return text;
  const at = letters[Math.floor(random() * letters.length)];
  const pick = (s: string) => s[Math.floor(random() * s.length)];
  switch (Math.floor(random() * 4)) {
    case 0: // swap with the next character, when that is a letter too
      if (at + 1 < text.length && isLetter(text[at + 1]) && text[at + 1] !== text[at]) {
        return text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
      }
      return text.slice(0, at) + text.slice(at + 1);
    case 1: // dropped
      return text.slice(0, at) + text.slice(at + 1);
    case 2: // doubled
      return text.slice(0, at + 1) + text[at] + text.slice(at + 1);
    default: {
      // mistyped: any other letter
      let replacement = pick(LETTERS);
      while (replacement === text[at].toLowerCase()) replacement = pick(LETTERS);
      return text.slice(0, at) + replacement + text.slice(at + 1);
    }
  }
}

/** The text with its number of typos; never the text itself, case aside. */
export function misspell(text: string, random: () => number): string {
  for (;;) {
    let result = text;
    for (let i = 0; i < typoCount(text); i++) result = oneTypo(result, random);
    if (result.toLowerCase() !== text.toLowerCase()) return result;
  }
}
