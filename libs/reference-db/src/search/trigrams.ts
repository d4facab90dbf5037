/** A letter or digit: pg_trgm's words are runs of them. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWordChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c > 0x7f && WORD_CHAR.test(String.fromCodePoint(c)));
const SPACE = 0x20;
/** A code point in 17 bits: three fit a double exactly (the BMP and the next plane; beyond, two may share a key). */
const MASK = 0x1ffff;
const key = (a: number, b: number, c: number) => (a & MASK) * 2 ** 34 + (b & MASK) * 2 ** 17 + (c & MASK);

/** The keys of a text, reused from call to call (type-ahead takes the trigrams of hundreds of terms a request). */
let scratch = new Float64Array(256);

/**
 * The trigrams pg_trgm takes from a text, sorted and each once, as numbers: those of each word (a run of letters
 * and digits) padded with two spaces before and one after, each counted once however often it occurs ("duncan
 * disease" has "  d" twice). The texts are already lower-cased (disease terms) or folded (the catalogue's), as
 * pg_trgm would lower-case them.
 */
export function trigramsOf(text: string): Float64Array {
  // A text of n code units has at most 2n trigrams (a one-letter word has two).
  if (scratch.length < 2 * text.length + 2) scratch = new Float64Array(4 * text.length + 4);
  let count = 0;
  let [a, b] = [SPACE, SPACE];
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? (text.codePointAt(i) ?? SPACE) : SPACE;
    if (c > 0xffff) i += 1;
    if (isWordChar(c)) {
      scratch[count++] = key(a, b, c);
      [a, b, inWord] = [b, c, true];
    } else if (inWord) {
      scratch[count++] = key(a, b, SPACE);
      [a, b, inWord] = [SPACE, SPACE, false];
    }
  }
  const keys = scratch.subarray(0, count).sort();
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || keys[i] !== keys[i - 1]) keys[distinct++] = keys[i];
  return keys.slice(0, distinct);
}

/**
 * pg_trgm's `similarity` of two texts from their trigrams (trigramsOf): shared trigrams over the trigrams of
 * either text, as the float4 it computes (the ranking rounds it to thousandths, where a double could round the
 * other way).
 */
export function trigramSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) [shared, i, j] = [shared + 1, i + 1, j + 1];
    else if (a[i] < b[j]) i += 1;
    else j += 1;
  }
  const union = a.length + b.length - shared;
  return union === 0 ? 0 : Math.fround(shared / union);
}
