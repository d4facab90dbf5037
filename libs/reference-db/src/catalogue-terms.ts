/**
 * What a laboratory test and a condition are found by in type-ahead
 * (docs/SEARCH.md, "Type-ahead"): their names and the aliases their sources
 * carry, folded as drug terms are (foldText), so the query is folded alike.
 */
import { foldText, type DrugTerm } from './drug-terms';

/** A term of a terms table: `isName` when it is (a form of) the concept's own name. */
export type ConceptTerm = DrugTerm;

/** "(…)" groups of a lab test's name: "Alanine aminotransferase (ALT)", "Glucose, fasting (serum/plasma)". */
const PARENTHESISED = /\s*\(([^()]*)\)/g;
/** A capital letter makes a group an alias (ALT, anti-CCP, total CO2); without one it qualifies (total, morning). */
const ALIAS = /\p{Lu}/u;

function termSet(): { add(term: string, isName: boolean): void; terms(): ConceptTerm[] } {
  const terms = new Map<string, boolean>();
  return {
    add(text, isName) {
      const term = foldText(text);
      if (term && !terms.has(term)) terms.set(term, isName);
    },
    terms: () => [...terms].map(([term, isName]) => ({ term, isName })),
  };
}

/**
 * A lab test's name; the name without its parenthesised groups (a name too:
 * "alanine aminotransferase"); each group holding a capital letter, its
 * short name ("alt", a name too, so that the test whose name holds it ranks
 * before the panels that report it); and the components it reports
 * ("haemoglobin" for a full blood count), which find the tests that measure them.
 */
export function labTestTerms(name: string, componentNames: readonly string[]): ConceptTerm[] {
  const set = termSet();
  set.add(name, true);
  set.add(name.replace(PARENTHESISED, ' '), true);
  for (const [, group] of name.matchAll(PARENTHESISED)) if (ALIAS.test(group)) set.add(group, true);
  for (const component of componentNames) set.add(component, false);
  return set.terms();
}

/**
 * A condition's name, and the same without the possessive's apostrophe, both
 * ways it is written ("alzheimers disease", "alzheimer disease"), so that a
 * prefix typed without it still completes.
 */
export function conditionTerms(name: string): ConceptTerm[] {
  const set = termSet();
  set.add(name, true);
  set.add(name.replace(/['’]s\b/g, 's'), false);
  set.add(name.replace(/['’](s\b)?/g, ''), false);
  return set.terms();
}
