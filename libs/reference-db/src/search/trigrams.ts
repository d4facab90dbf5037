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

/** Writes the keys of a text's trigrams, repeats included, to `scratch`; gives how many. */
function scratchKeys(text: string): number {
  // A text of n code units has at most 2n trigrams (a one-letter word has two).
  if (scratch.length < 2 * text.length + 2) scratch = new Float64Array(4 * text.length + 4);
  let count = 0;
  let a = SPACE;
  let b = SPACE;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? (text.codePointAt(i) ?? SPACE) : SPACE;
    if (c > 0xffff) i += 1;
    if (isWordChar(c)) {
      scratch[count++] = key(a, b, c);
      a = b;
      b = c;
      inWord = true;
    } else if (inWord) {
      scratch[count++] = key(a, b, SPACE);
      a = SPACE;
      b = SPACE;
      inWord = false;
    }
  }
  return count;
}

/**
 * The trigrams pg_trgm takes from a text, sorted and each once, as numbers: those of each word (a run of letters
 * and digits) padded with two spaces before and one after, each counted once however often it occurs ("duncan
 * disease" has "  d" twice). The texts are already lower-cased (disease terms) or folded (the catalogue's), as
 * pg_trgm would lower-case them.
 */
export function trigramsOf(text: string): Float64Array {
  const count = distinctTrigramCount(text);
  return scratch.slice(0, count);
}

/**
 * The trigrams of a text as trigramsOf gives them, without the copy: a view that the next call of any function
 * here overwrites (a table's build takes those of every term, each used at once).
 */
export function trigramsView(text: string): Float64Array {
  const count = distinctTrigramCount(text);
  return scratch.subarray(0, count);
}

/** How many different trigrams pg_trgm takes from a text (trigramsOf), leaving them sorted at the start of `scratch`. */
export function distinctTrigramCount(text: string): number {
  const count = scratchKeys(text);
  const keys = scratch.subarray(0, count).sort();
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || keys[i] !== keys[i - 1]) keys[distinct++] = keys[i];
  return distinct;
}

/**
 * pg_trgm's `similarity` of texts to one query: shared trigrams over the trigrams of either text, as the float4
 * it computes (the ranking rounds it to thousandths, where a double could round the other way). A text's own
 * count of distinct trigrams is given (TermTable keeps it per term), so each text costs one pass over its
 * characters: type-ahead measures hundreds of terms a request.
 */
export class TrigramSimilarity {
  private readonly index: Map<number, number>;
  private readonly size: number;
  /** Which query trigrams the current text has: marked with the text's stamp, so no reset between texts. */
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(query: string) {
    const keys = trigramsOf(query);
    this.size = keys.length;
    this.index = new Map(Array.from(keys, (trigram, i) => [trigram, i]));
    this.seen = new Uint32Array(keys.length);
  }

  of(text: string, distinctTrigrams: number): number {
    this.stamp += 1;
    let shared = 0;
    const count = scratchKeys(text);
    for (let i = 0; i < count; i++) {
      const at = this.index.get(scratch[i]);
      if (at !== undefined && this.seen[at] !== this.stamp) {
        this.seen[at] = this.stamp;
        shared += 1;
      }
    }
    const union = this.size + distinctTrigrams - shared;
    return union === 0 ? 0 : Math.fround(shared / union);
  }
}
