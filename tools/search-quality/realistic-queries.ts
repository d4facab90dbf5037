import { isCode } from './query-sets';
import { realisticMisspelling } from './realistic-typos';

/** A name or synonym of one concept (a disease, a drug), as its terms table holds it. */
export interface WantedTerm {
  term: string;
  /** The concept's primary key. */
  pk: string;
  isName: boolean;
}

export interface RealisticQuery {
  /** What the user typed. */
  text: string;
  /** The term it was typed from, and the concept the user wanted. */
  original: string;
  pk: string;
}

/** Words of 4 letters or more: shorter terms ("flu", "ms") spell other terms after one slip, so nothing could know what was meant. */
const MIN_LETTERS = 4;

function shuffled<T>(items: T[], random: () => number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool;
}

/**
 * The realistic fuzzy query set: `count` seeded misspellings (realistic-typos.ts), half of names and half of
 * synonyms (brands and ingredients for drugs), each of a term that belongs to exactly one concept, so every query
 * has one wanted answer and none is a term nothing is near. Codes and abbreviations are left out (as in
 * query-sets.ts).
 */
export function realisticQueries(terms: WantedTerm[], count: number, random: () => number): RealisticQuery[] {
  const owners = new Map<string, Set<string>>();
  for (const { term, pk } of terms) owners.set(term, (owners.get(term) ?? new Set()).add(pk));
  const usable = terms.filter(
    ({ term, isName }) => owners.get(term)?.size === 1 && (term.match(/\p{L}/gu)?.length ?? 0) >= MIN_LETTERS && (isName || !isCode(term)),
  );
  const names = shuffled(usable.filter((t) => t.isName), random);
  const synonyms = shuffled(usable.filter((t) => !t.isName), random);
  const half = Math.ceil(count / 2);
  // When a vocabulary has too few synonyms (a small test set), names fill the rest.
  const chosen = [...synonyms.slice(0, count - Math.min(half, names.length)), ...names].slice(0, count);
  return shuffled(chosen, random).map(({ term, pk }) => ({ text: realisticMisspelling(term, random), original: term, pk }));
}
