import { trigramsView } from './trigrams';

/**
 * Each trigram's terms, as pg_trgm's GIN index holds them, for the near pass of fuzzy search in memory
 * (near-candidates.ts): the terms of each trigram are one stretch of a single Uint32Array, in term order. A
 * term costs 4 bytes for each of its different trigrams, 2 for their count, and no object.
 */
export class TrigramPostings {
  private readonly lists = new Map<number, number>();
  private readonly offsets: Uint32Array;
  private readonly postings: Uint32Array;
  /** How many different trigrams each term has (at most 400: a term has at most 200 characters), for its similarity. */
  private readonly counts: Uint16Array;

  constructor(terms: readonly string[]) {
    // First pass: number each trigram's list and note, per term, the lists it belongs to.
    let listsOfTerms = new Uint32Array(16 * terms.length + 16);
    const termEnds = new Uint32Array(terms.length);
    this.counts = new Uint16Array(terms.length);
    const sizes: number[] = [];
    let at = 0;
    terms.forEach((term, k) => {
      const keys = trigramsView(term);
      this.counts[k] = keys.length;
      if (listsOfTerms.length < at + keys.length) {
        const grown = new Uint32Array(2 * (at + keys.length));
        grown.set(listsOfTerms);
        listsOfTerms = grown;
      }
      for (const key of keys) {
        let list = this.lists.get(key);
        if (list === undefined) {
          list = sizes.length;
          this.lists.set(key, list);
          sizes.push(0);
        }
        sizes[list] += 1;
        listsOfTerms[at++] = list;
      }
      termEnds[k] = at;
    });
    // Second pass: each list's stretch, filled in term order.
    this.offsets = new Uint32Array(sizes.length + 1);
    sizes.forEach((size, list) => (this.offsets[list + 1] = this.offsets[list] + size));
    this.postings = new Uint32Array(at);
    const filled = this.offsets.slice(0, sizes.length);
    let from = 0;
    termEnds.forEach((end, term) => {
      for (let i = from; i < end; i++) this.postings[filled[listsOfTerms[i]]++] = term;
      from = end;
    });
  }

  /** How many different trigrams term k has, as pg_trgm counts them. */
  trigramCount(term: number): number {
    return this.counts[term];
  }

  /** The terms that have this trigram (a key of trigrams.ts), in term order; empty when none has it. */
  termsWith(trigram: number): Uint32Array {
    const list = this.lists.get(trigram);
    return list === undefined ? this.postings.subarray(0, 0) : this.postings.subarray(this.offsets[list], this.offsets[list + 1]);
  }
}
