import type { DiseaseRecord } from '@libs/contracts';
import { misspell, seededRandom } from './typos';

export interface QualityQuery {
  /** What a user typed: a name or synonym with its typos. */
  text: string;
  /** The text it was made from, and the disease the user meant. */
  original: string;
  diseaseId: string;
}

export interface QuerySets {
  names: QualityQuery[];
  synonyms: QualityQuery[];
}

/**
 * Abbreviations and codes (one word of at most 6 characters: "DBA2", "GSD1d")
 * are left out of the synonym set: one typo in a code usually spells another
 * code, so no search can know which was meant. They are still searchable.
 */
export const isCode = (term: string) => !/\s/.test(term.trim()) && term.trim().length <= 6;

function sample<T>(items: T[], count: number, random: () => number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

/**
 * Seeded misspelt queries from the diseases' names and, separately, their
 * synonyms. Only text that names exactly one disease is used (a synonym
 * shared by two diseases has no single intended answer).
 */
export function makeQuerySets(diseases: DiseaseRecord[], perSet: number, seed: number): QuerySets {
  const owners = new Map<string, Set<string>>();
  for (const disease of diseases) {
    for (const term of [disease.diseaseName, ...disease.synonyms]) {
      const key = term.toLowerCase();
      if (!owners.has(key)) owners.set(key, new Set());
      owners.get(key)?.add(disease.diseaseId);
    }
  }
  const unique = (term: string) => owners.get(term.toLowerCase())?.size === 1 && /\p{L}/u.test(term);
  const names = diseases.filter((d) => unique(d.diseaseName)).map((d) => ({ term: d.diseaseName, diseaseId: d.diseaseId }));
  const synonyms = diseases.flatMap((d) =>
    d.synonyms
      .filter((s) => unique(s) && !isCode(s) && s.toLowerCase() !== d.diseaseName.toLowerCase())
      .map((s) => ({ term: s, diseaseId: d.diseaseId })),
  );
  const random = seededRandom(seed);
  const misspelt = (entries: { term: string; diseaseId: string }[]) =>
    sample(entries, perSet, random).map(({ term, diseaseId }) => ({ text: misspell(term, random), original: term, diseaseId }));
  return { names: misspelt(names), synonyms: misspelt(synonyms) };
}
