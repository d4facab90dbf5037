import { TrigramPostings } from './trigram-postings';
import { trigramsOf } from './trigrams';

/** One row of a terms table (TermIndex), and the display name of each concept, as a TermTable is built from them. */
export interface TermRow {
  pk: string;
  term: string;
  isName: boolean;
}
export interface ConceptName {
  pk: string;
  name: string;
}

/**
 * What a TypoPattern matches: texts that start with `before`, then, when `after` is given, any one character and
 * `after` (LIKE's `before_after%`). A pattern never starts with the wildcard, so each is a range of a sorted array.
 */
export interface TypoPattern {
  before: string;
  after?: string;
}

/** A sorted list of texts, each the stretch of TermTable.text from starts[k] to ends[k] (its term's end), of term terms[k]. */
interface SortedTexts {
  size: number;
  starts: Uint32Array;
  ends: Uint32Array;
  /** Absent: entry k is term k. */
  terms?: Uint32Array;
}

/** Below this many entries, a wildcard's range is checked entry by entry: cheaper than its binary searches. */
const SCANNED_RANGE = 32;

/** A term found by its trigrams (TermTable.similarTerms), with its pg_trgm similarity to the query. */
export interface SimilarTerm {
  term: number;
  similarity: number;
}

/** How many code points a text has: what PostgreSQL's length() counts. */
function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        i += 1;
      }
    }
  }
  return length;
}

/** A run of letters and digits, as pg_trgm reads words: where one begins inside a term, a part match may begin. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A vocabulary's terms in memory, for type-ahead (docs/SEARCH.md, "Type-ahead") and fuzzy search's near pass:
 * the terms sorted (code unit order) and joined into one string, with parallel typed arrays for where each starts,
 * its concept and whether it is the concept's name, and the concepts' display names. Beside the terms, the
 * positions where a word begins inside a term, sorted by the text from there to the term's end, so a prefix search
 * over them finds a word inside a longer term ("alzheimer" in "dementia, alzheimer type") as the terms' own finds
 * their starts; and each trigram's terms (TrigramPostings, for similarTerms). A term costs its characters, 15
 * bytes, 12 for each word inside it and 4 for each of its trigrams, no object: the reference service's heap is
 * capped at 128 MB (SERVICE_NODE_FLAGS).
 */
export class TermTable {
  readonly text: string;
  readonly size: number;
  private readonly starts: Uint32Array;
  private readonly owners: Uint32Array;
  private readonly names: Uint8Array;
  /** Each term's length in code points (at most 200), as PostgreSQL counts it. */
  private readonly lengths: Uint16Array;
  private readonly postings: TrigramPostings;
  /** similarTerms' count of shared trigrams per term, zero between calls (each call resets what it touched). */
  private readonly shared: Uint16Array;
  private readonly termTexts: SortedTexts;
  /** Where a word begins after a term's first character, sorted by the text from there to the term's end. */
  private readonly wordTexts: SortedTexts;
  private readonly conceptPks: string[];
  private readonly conceptNames: string[];
  private readonly conceptOf: Map<string, number>;

  constructor(
    /** The dataset's version (dataset_versions) read with these rows. */
    readonly version: bigint,
    rows: readonly TermRow[],
    concepts: readonly ConceptName[],
  ) {
    this.conceptPks = concepts.map((concept) => concept.pk);
    this.conceptNames = concepts.map((concept) => concept.name);
    this.conceptOf = new Map(this.conceptPks.map((pk, index) => [pk, index]));
    const order = rows.map((_, index) => index).sort((a, b) => {
      const [x, y] = [rows[a].term, rows[b].term];
      return x < y ? -1 : x > y ? 1 : Number(rows[a].pk) - Number(rows[b].pk);
    });
    this.size = order.length;
    this.starts = new Uint32Array(this.size + 1);
    this.owners = new Uint32Array(this.size);
    this.names = new Uint8Array(this.size);
    this.lengths = new Uint16Array(this.size);
    this.shared = new Uint16Array(this.size);
    const wordStarts: number[] = [];
    const wordTerms: number[] = [];
    let at = 0;
    order.forEach((row, k) => {
      const { pk, term, isName } = rows[row];
      const concept = this.conceptOf.get(pk);
      // The terms' writers keep them in the concept's transaction, and the rows come from one statement.
      if (concept === undefined) throw new Error(`term "${term}" names a concept ${pk} that is not there`);
      this.starts[k] = at;
      this.owners[k] = concept;
      this.names[k] = isName ? 1 : 0;
      this.lengths[k] = codePointLength(term);
      for (const word of term.matchAll(WORD)) {
        if (word.index > 0) {
          wordStarts.push(at + word.index);
          wordTerms.push(k);
        }
      }
      at += term.length;
    });
    this.starts[this.size] = at;
    const sortedTerms = order.map((row) => rows[row].term);
    this.text = sortedTerms.join('');
    this.postings = new TrigramPostings(sortedTerms);
    // Compared as strings, natively: a comparison in JS of the characters took most of the build.
    const suffixes = wordStarts.map((start, index) => this.text.slice(start, this.starts[wordTerms[index] + 1]));
    const byText = wordStarts.map((_, index) => index).sort((a, b) => (suffixes[a] < suffixes[b] ? -1 : suffixes[a] > suffixes[b] ? 1 : a - b));
    this.termTexts = { size: this.size, starts: this.starts, ends: this.starts.subarray(1) };
    this.wordTexts = {
      size: byText.length,
      starts: Uint32Array.from(byText, (index) => wordStarts[index]),
      ends: Uint32Array.from(byText, (index) => this.starts[wordTerms[index] + 1]),
      terms: Uint32Array.from(byText, (index) => wordTerms[index]),
    };
  }

  pk(term: number): string {
    return this.conceptPks[this.owners[term]];
  }
  isName(term: number): boolean {
    return this.names[term] === 1;
  }
  trigramCount(term: number): number {
    return this.postings.trigramCount(term);
  }
  term(term: number): string {
    return this.text.slice(this.starts[term], this.starts[term + 1]);
  }
  /** The display name of a concept, by primary key: its name as stored. */
  nameOf(pk: string): string | undefined {
    const index = this.conceptOf.get(pk);
    return index === undefined ? undefined : this.conceptNames[index];
  }

  /**
   * The terms `length.min` to `length.max` code points long whose pg_trgm similarity to the query is at least
   * `least`, as a float4 compared with the threshold (what `term % query` selects with pg_trgm.similarity_threshold
   * at `least`), in term order. The query's trigrams' lists are read and each term's shared trigrams counted, as
   * the GIN index's scan and recheck do, but only for terms of those lengths.
   */
  similarTerms(query: string, least: number, length: { min: number; max: number }): SimilarTerm[] {
    const keys = trigramsOf(query);
    const touched: number[] = [];
    for (const key of keys) {
      for (const term of this.postings.termsWith(key)) {
        const size = this.lengths[term];
        if (size < length.min || size > length.max) continue;
        if (this.shared[term]++ === 0) touched.push(term);
      }
    }
    const found: SimilarTerm[] = [];
    for (const term of touched) {
      const shared = this.shared[term];
      this.shared[term] = 0;
      const similarity = Math.fround(shared / (keys.length + this.postings.trigramCount(term) - shared));
      if (similarity >= least) found.push({ term, similarity });
    }
    return found.sort((a, b) => a.term - b.term);
  }

  /** The terms that match the pattern from their start, the first `cap` in term order. */
  termsMatching(pattern: TypoPattern, cap: number): number[] {
    return this.matching(this.termTexts, pattern, cap);
  }
  /** The terms in which a word after the first matches the pattern, the first `cap` in the order of the text from that word on. */
  wordsMatching(pattern: TypoPattern, cap: number): number[] {
    return this.matching(this.wordTexts, pattern, cap);
  }

  /**
   * <0, 0 or >0 as entry k's text from `offset` on, cut to the needle's length, sorts before, equals or sorts after
   * the needle. Within a range whose texts share their first `offset` characters, only the rest is compared.
   */
  private compareAt(texts: SortedTexts, k: number, offset: number, needle: string): number {
    const start = texts.starts[k] + offset;
    const end = texts.ends[k];
    const length = Math.min(end - start, needle.length);
    for (let i = 0; i < length; i++) {
      const difference = this.text.charCodeAt(start + i) - needle.charCodeAt(i);
      if (difference !== 0) return difference;
    }
    return end - start < needle.length ? -1 : 0;
  }

  /** The first entry in [from, to) whose text from `offset` (cut to the needle's length) sorts after the needle, or at or after it with `orEqual`. */
  private bound(texts: SortedTexts, offset: number, needle: string, from: number, to: number, orEqual: boolean): number {
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = this.compareAt(texts, middle, offset, needle);
      if (order > 0 || (orEqual && order === 0)) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /** The entries of [from, to), which share their first `offset` characters, whose text from there starts with the needle: a range, the array being sorted. */
  private range(texts: SortedTexts, offset: number, needle: string, from: number, to: number): [number, number] {
    const low = this.bound(texts, offset, needle, from, to, true);
    return [low, this.bound(texts, offset, needle, low, to, false)];
  }

  /** The first entry in [from, to), which share their first `offset` characters and have one more, whose character at `offset` comes after `code`. */
  private groupEnd(texts: SortedTexts, offset: number, code: number, from: number, to: number): number {
    let low = from;
    let high = to;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.text.charCodeAt(texts.starts[middle] + offset) > code) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  /**
   * The first `cap` entries that match, in order, as terms. With a wildcard, the range of `before` is walked by
   * its next character: each character's group holds the matches of `before`, it and `after` as one range, so
   * a pattern costs a binary search for the group's end and two for the range per distinct next character (a few
   * dozen), however many terms start with `before` (a fifth of a vocabulary can start with one letter), each
   * comparing only the characters after those the group shares; a small range is checked entry by entry.
   */
  private matching(texts: SortedTexts, pattern: TypoPattern, cap: number): number[] {
    const { before, after } = pattern;
    const [low, high] = this.range(texts, 0, before, 0, texts.size);
    const found: number[] = [];
    const take = (k: number) => found.push(texts.terms ? texts.terms[k] : k);
    if (after === undefined) {
      for (let k = low; k < high && found.length < cap; k++) take(k);
      return found;
    }
    const offset = before.length;
    let from = low;
    while (from < high && found.length < cap) {
      // The text that is `before` itself has no character for the wildcard; it sorts first in the range.
      if (texts.ends[from] - texts.starts[from] === offset) {
        from += 1;
        continue;
      }
      if (high - from <= SCANNED_RANGE) {
        if (this.compareAt(texts, from, offset + 1, after) === 0) take(from);
        from += 1;
        continue;
      }
      const groupEnd = this.groupEnd(texts, offset, this.text.charCodeAt(texts.starts[from] + offset), from, high);
      const [matchLow, matchHigh] = this.range(texts, offset + 1, after, from, groupEnd);
      for (let k = matchLow; k < matchHigh && found.length < cap; k++) take(k);
      from = groupEnd;
    }
    return found;
  }
}
