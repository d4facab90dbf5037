/**
 * What a drug is searched by (docs/SEARCH.md, "Drug search"): its name, the
 * name without its salt ("metformin" for "metformin hydrochloride"), each
 * active ingredient of a combination (with and without its salt) and the brand
 * names its products are sold under. Every term is folded (foldText), and so
 * is the query, so search ignores letter case and accents.
 */

/** Lower-cased, accents removed (NFD, then the combining marks dropped), whitespace collapsed. */
export const foldText = (text: string): string =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Words that name the salt, ester or hydrate of an active moiety rather than
 * the moiety itself, as Drugs@FDA and the default data write them after it
 * ("levothyroxine sodium", "methylprednisolone sodium succinate").
 */
const SALT_WORDS = new Set(
  `hydrochloride hcl dihydrochloride hydrobromide bromide chloride sodium disodium potassium calcium magnesium zinc
   sulfate sulphate bisulfate maleate mesylate besylate tosylate napsylate edisylate tartrate bitartrate citrate
   acetate diacetate phosphate succinate fumarate lactate gluconate nitrate oxalate pamoate propionate dipropionate
   valerate benzoate estolate stearate tromethamine meglumine decanoate enanthate cypionate hyclate xinafoate
   isethionate malate salicylate hydrate monohydrate dihydrate trihydrate sesquihydrate anhydrous`.split(/\s+/),
);

/** The name with its trailing salt words removed, or undefined when that leaves nothing or changes nothing. */
export function withoutSalt(name: string): string | undefined {
  const words = name.split(' ');
  let end = words.length;
  while (end > 0 && SALT_WORDS.has(words[end - 1])) end -= 1;
  return end === 0 || end === words.length ? undefined : words.slice(0, end).join(' ');
}

/** Ingredients of a combination: "glipizide; metformin hydrochloride", "abacavir + lamivudine", "a and b". */
const INGREDIENT_SEPARATOR = /\s*[;+]\s*|\s+and\s+/;

export interface DrugTerm {
  term: string;
  /** The drug's own name, or that name without its salt. */
  isName: boolean;
}

export function drugTerms(name: string, brandNames: readonly string[]): DrugTerm[] {
  const terms = new Map<string, boolean>();
  const add = (term: string | undefined, isName: boolean) => {
    if (term && !terms.has(term)) terms.set(term, isName);
  };
  const folded = foldText(name);
  add(folded, true);
  const ingredients = folded.split(INGREDIENT_SEPARATOR).filter(Boolean);
  if (ingredients.length > 1) {
    // A combination is found by each of its ingredients, after the drugs that are that ingredient alone (is_name).
    for (const ingredient of ingredients) {
      add(ingredient, false);
      add(withoutSalt(ingredient), false);
    }
  } else {
    add(withoutSalt(folded), true);
  }
  for (const brand of brandNames) add(foldText(brand), false);
  return [...terms].map(([term, isName]) => ({ term, isName }));
}
