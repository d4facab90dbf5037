import type { DiseaseRecord } from '@libs/contracts';
import { misspell, oneTypo, seededRandom } from './typos';

export interface QualityQuery {
  /** What a user typed: a name or synonym with its typos. */
  text: string;
  /** The text it was made from, and the disease the user meant. */
  original: string;
  diseaseId: string;
}

/** Type-ahead suggests a disease by its name (CTD's names are unique, case aside) and its row's id. */
export interface TypeAheadQuery extends QualityQuery {
  diseaseName: string;
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

interface HeldOutTerm {
  term: string;
  diseaseId: string;
}

/**
 * The diseases' names and, separately, their synonyms that name exactly one
 * disease (a synonym shared by two has no single intended answer), codes left
 * out of the synonyms.
 */
function heldOutTerms(diseases: DiseaseRecord[]): { names: HeldOutTerm[]; synonyms: HeldOutTerm[] } {
  const owners = new Map<string, Set<string>>();
  for (const disease of diseases) {
    for (const term of [disease.diseaseName, ...disease.synonyms]) {
      const key = term.toLowerCase();
      if (!owners.has(key)) owners.set(key, new Set());
      owners.get(key)?.add(disease.diseaseId);
    }
  }
  const unique = (term: string) => owners.get(term.toLowerCase())?.size === 1 && /\p{L}/u.test(term);
  return {
    names: diseases.filter((d) => unique(d.diseaseName)).map((d) => ({ term: d.diseaseName, diseaseId: d.diseaseId })),
    synonyms: diseases.flatMap((d) =>
      d.synonyms
        .filter((s) => unique(s) && !isCode(s) && s.toLowerCase() !== d.diseaseName.toLowerCase())
        .map((s) => ({ term: s, diseaseId: d.diseaseId })),
    ),
  };
}

/** Seeded misspelt queries from the diseases' names and, separately, their synonyms (heldOutTerms). */
export function makeQuerySets(diseases: DiseaseRecord[], perSet: number, seed: number): QuerySets {
  const { names, synonyms } = heldOutTerms(diseases);
  const random = seededRandom(seed);
  const misspelt = (entries: HeldOutTerm[]) =>
    sample(entries, perSet, random).map(({ term, diseaseId }) => ({ text: misspell(term, random), original: term, diseaseId }));
  return { names: misspelt(names), synonyms: misspelt(synonyms) };
}

/** Type-ahead's typo falls in what is typed first: its first TYPO_WITHIN characters (the measure). */
export const TYPO_WITHIN = 6;

/**
 * Seeded terms for the type-ahead measure: names and synonyms together (as a
 * user meets them), each as typed with one typo in its first TYPO_WITHIN
 * characters; `text` is the whole misspelt term, typed a character at a time.
 */
export function makeTypeAheadSet(diseases: DiseaseRecord[], count: number, seed: number): TypeAheadQuery[] {
  const { names, synonyms } = heldOutTerms(diseases);
  const nameOf = new Map(diseases.map((d) => [d.diseaseId, d.diseaseName]));
  const random = seededRandom(seed);
  const typable = [...names, ...synonyms].filter(({ term }) => /\p{L}/u.test(term.slice(0, TYPO_WITHIN)));
  return sample(typable, count, random).map(({ term, diseaseId }) => {
    let text = term;
    while (text.toLowerCase() === term.toLowerCase()) text = oneTypo(term, random, TYPO_WITHIN);
    return { text, original: term, diseaseId, diseaseName: nameOf.get(diseaseId) ?? '' };
  });
}
