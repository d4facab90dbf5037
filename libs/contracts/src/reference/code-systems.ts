/**
 * The code systems a reference concept can be looked up by (`GET /api/v1/codes`, docs/REFERENCE.md "Code
 * lookup"): each id a source carries. The gateway offers these names, and the reference service resolves them.
 */
export const CODE_SYSTEMS = ['mesh', 'omim', 'doid', 'drugbank', 'fda-application', 'fda-product', 'atc', 'loinc'] as const;

export type CodeSystem = (typeof CODE_SYSTEMS)[number];

export const isCodeSystem = (name: string): name is CodeSystem => (CODE_SYSTEMS as readonly string[]).includes(name);

/** The vocabularies type-ahead (`GET /api/v1/suggest`, docs/SEARCH.md "Type-ahead") completes from, and the type of their items. */
export const SUGGEST_TYPES = { diseases: 'disease', drugs: 'drug', labs: 'lab', conditions: 'condition' } as const;

export type SuggestType = keyof typeof SUGGEST_TYPES;

export const isSuggestType = (name: string): name is SuggestType => Object.hasOwn(SUGGEST_TYPES, name);

/**
 * The value sets FHIR clients expand (`GET /api/v1/ValueSet/$expand`, docs/REFERENCE.md "FHIR terminology"): one per
 * vocabulary, each the concepts of one type that carry a code of its systems.
 */
export const VALUE_SETS = {
  diseases: { type: 'disease', systems: ['mesh', 'omim'] },
  drugs: { type: 'drug', systems: ['drugbank'] },
  labs: { type: 'lab', systems: ['loinc'] },
  conditions: { type: 'condition', systems: ['doid'] },
  categories: { type: 'category', systems: ['atc'] },
} as const satisfies Record<string, { type: string; systems: readonly CodeSystem[] }>;

export type ValueSetName = keyof typeof VALUE_SETS;

export const isValueSetName = (name: string): name is ValueSetName => Object.hasOwn(VALUE_SETS, name);
