import { z } from 'zod';
import { CODE_SYSTEMS, REFERENCE_LIMITS, SUGGEST_TYPES } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { cursor, listPattern, NON_BLANK_PATTERN, queryBoolean, queryChoice, queryInteger, queryText } from '../platform/routing/query-fields';
import { page, problem } from '../platform/routing/responses';
import { format, referenceJsonResponses, referenceResponses } from './reference-response';
import * as schemas from './schemas';

/** The read-only reference operations (docs/REFERENCE.md); every one answers JSON or FHIR (`_format`). */

const tag = 'Reference';
const { labTestPage, drugPage, categoryPage, conditionPage, premisePage, maxTerms, termMaxLength } = REFERENCE_LIMITS;
const access = { key: 'reference:read' } as const;

// The list's pattern takes the place of queryText's in the document (it excludes control characters too), as
// NON_BLANK_PATTERN does below.
const commaList = (description: string) =>
  queryText(REFERENCE_LIMITS.termListMaxLength)
    .optional()
    .meta({
      description: `${description} A comma-separated list (at most ${maxTerms} terms of at most ${termMaxLength} characters each).`,
      pattern: listPattern(maxTerms, termMaxLength),
    });
const detail = (description: string) => queryBoolean(false).meta({ description });
const searchOf = (resourceType: string) => ({ resourceType, interaction: 'search-type' }) as const;
const readOf = (resourceType: string) => ({ resourceType, interaction: 'read' }) as const;
/** The types list as the service reads it: known names, spaces around them and blank terms allowed. */
const suggestType = `\\s*(?:${Object.keys(SUGGEST_TYPES).join('|')})?\\s*`;
const SUGGEST_TYPES_PATTERN = `^${suggestType}(?:,${suggestType})*$`;
const searchStopped = problem(
  'The search ran longer than the reference service allows at its database and was stopped (its statement timeout); `Retry-After` says when to try again.',
);
const byId = (what: string) => z.object({ id: z.string().meta({ description: `${what} id (a decimal string).` }) });

export const searchDiseases = operation({
  method: 'get',
  path: '/api/v1/diseases',
  operationId: 'searchDiseases',
  summary: 'Search diseases by name, fuzzy or exact',
  description:
    'Without `n`, every disease. With `n`, a typo-tolerant search over names and synonyms, best match first; with `e=true`, case-insensitive equality with a name or synonym.',
  tag,
  access,
  request: {
    query: z.object({
      n: queryText(REFERENCE_LIMITS.diseaseNameMaxLength).optional().meta({ description: 'Disease name to search for.' }),
      e: queryBoolean(false).meta({ description: 'Exact match instead of fuzzy search.' }),
      r: queryBoolean(true).meta({ description: 'Detailed records (`true`) or names only (`false`).' }),
      s: queryBoolean(false).meta({ description: 'Order by name instead of relevance.' }),
      sOrder: queryChoice(['asc', 'desc']).default('asc').meta({ description: 'Name order when `s=true`.' }),
      b: queryInteger(REFERENCE_LIMITS.diseaseBatch).meta({ description: 'Batch size.' }),
      cursor,
      _format: format,
    }),
  },
  responses: {
    ...referenceResponses(
      'A page of diseases.',
      page('diseases', z.union([schemas.disease, schemas.diseaseName])),
      searchOf('ValueSet'),
      'No disease matches.',
    ),
    '429': searchStopped,
  },
});

export const searchLabTests = operation({
  method: 'get',
  path: '/api/v1/labs',
  operationId: 'searchLabTests',
  summary: 'Laboratory tests by test, category or subcategory name',
  tag,
  access,
  request: {
    query: z.object({
      n: commaList('A test matches when any term is a substring of its name, category or subcategory.'),
      r: detail('Add description, methodology, turnaround and result components.'),
      cursor,
      _format: format,
    }),
  },
  responses: referenceResponses(
    `A page of ${labTestPage} tests.`,
    page('tests', schemas.labTest, labTestPage),
    searchOf('ObservationDefinition'),
    'No test matches.',
  ),
});

export const searchDosages = operation({
  method: 'get',
  path: '/dosages',
  operationId: 'searchDosages',
  aliases: [{ path: '/api/v1/dosages', operationId: 'searchDosagesV1' }],
  summary: 'Dosages by drug name, grouped by drug',
  tag,
  access,
  request: {
    query: z.object({
      // Blank is refused as missing, by the service, which trims the name.
      n: queryText(REFERENCE_LIMITS.diseaseNameMaxLength, 'is required: the drug name to search dosages for').meta({
        description: 'Required: a substring of the drug name.',
        pattern: NON_BLANK_PATTERN,
      }),
      b: queryInteger(REFERENCE_LIMITS.dosageBatch).meta({
        description: 'Dosage entries per page; a drug group may continue on the next page.',
      }),
      cursor,
      _format: format,
    }),
  },
  responses: referenceResponses('A page of drug groups.', page('dosages', schemas.drugGroup), searchOf('MedicationKnowledge'), 'No dosage matches.'),
});

export const getDosage = operation({
  method: 'get',
  path: '/dosages/{id}',
  operationId: 'getDosage',
  aliases: [{ path: '/api/v1/dosages/{id}', operationId: 'getDosageV1' }],
  summary: 'One dosage',
  tag,
  access,
  request: { path: byId('Dosage'), query: z.object({ _format: format }) },
  responses: referenceResponses(
    'The dosage and its drug.',
    z.object({ drugName: z.string(), dosage: schemas.dosage }),
    readOf('MedicationKnowledge'),
    'No dosage has that id.',
  ),
});

export const listDrugs = operation({
  method: 'get',
  path: '/api/v1/drugs',
  operationId: 'listDrugs',
  summary: `Every drug by name, or a drug search; ${drugPage} a page`,
  description:
    'Without `n`, every drug in name order. With `n`, a typo-tolerant search by brand name, generic name or active ingredient (salt forms included: `metformin` finds `metformin hydrochloride`), ignoring case and accents, best match first. The page size is fixed: `BATCH_COUNT` or `b`, with any value, is refused with 400.',
  tag,
  access,
  request: {
    query: z.object({
      n: queryText(termMaxLength).optional().meta({ description: 'Brand name, generic name or active ingredient to search for.' }),
      cursor,
      _format: format,
    }),
  },
  responses: {
    ...referenceResponses(`A page of ${drugPage} drugs.`, page('drugs', schemas.drug, drugPage), searchOf('MedicationKnowledge')),
    '429': searchStopped,
  },
});

export const getDrug = operation({
  method: 'get',
  path: '/api/v1/drugs/{id}',
  operationId: 'getDrug',
  summary: 'One drug with its dosages and ATC categories',
  tag,
  access,
  request: { path: byId('Drug'), query: z.object({ _format: format }) },
  responses: referenceResponses(
    'The drug.',
    z.intersection(schemas.drug, z.object({ dosages: z.array(schemas.dosage), categories: z.array(schemas.drugCategory) })),
    readOf('MedicationKnowledge'),
    'No drug has that id.',
  ),
});

export const getDrugFoodInteractions = operation({
  method: 'get',
  path: '/api/v1/drugs/{id}/food-interactions',
  operationId: 'getDrugFoodInteractions',
  summary: "A drug's interactions with food, most severe first",
  tag,
  access,
  request: { path: byId('Drug'), query: z.object({ _format: format }) },
  responses: referenceResponses(
    'The drug and its food interactions (possibly none).',
    z.object({
      drug: z.object({ id: z.string(), name: z.string(), drugbankId: z.string().nullable() }),
      interactions: z.array(schemas.foodInteraction),
    }),
    searchOf('MedicinalProductInteraction'),
    'No drug has that id.',
  ),
});

export const searchDrugCategories = operation({
  method: 'get',
  path: '/api/v1/categories',
  operationId: 'searchDrugCategories',
  summary: 'WHO ATC drug categories',
  tag,
  access,
  request: {
    query: z.object({
      c: commaList('A category matches when a term equals its code or is a substring of its name.'),
      r: detail('Add the related drugs.'),
      cursor,
      _format: format,
    }),
  },
  responses: referenceResponses(
    `A page of ${categoryPage} categories (possibly empty).`,
    page('categories', schemas.drugCategory, categoryPage),
    searchOf('ValueSet'),
  ),
});

export const searchConditions = operation({
  method: 'get',
  path: '/api/v1/conditions',
  operationId: 'searchConditions',
  summary: 'Conditions with their drugs and indications',
  tag,
  access,
  request: {
    query: z.object({
      q: queryText().optional().meta({ description: 'A substring of the condition name.' }),
      r: detail('Add related drugs and indications.'),
      cursor,
      _format: format,
    }),
  },
  responses: referenceResponses(
    `A page of ${conditionPage} conditions (possibly empty).`,
    page('conditions', schemas.condition, conditionPage),
    searchOf('ValueSet'),
  ),
});

export const searchPremises = operation({
  method: 'get',
  path: '/api/v1/premises',
  operationId: 'searchPremises',
  summary: 'Pharmacies, hospitals, clinics and laboratories',
  tag,
  access,
  request: {
    query: z.object({
      n: commaList('A premise matches when any term is a substring of its name.'),
      r: detail('Add address, contact, hours, position and services.'),
      cursor,
      _format: format,
    }),
  },
  responses: referenceResponses(
    `A page of ${premisePage} premises (possibly empty).`,
    page('premises', schemas.premise, premisePage),
    searchOf('Location'),
  ),
});

export const lookupCode = operation({
  method: 'get',
  path: '/api/v1/codes',
  operationId: 'lookupCode',
  summary: 'The concepts a source code names: a disease by MeSH or OMIM id, a drug by DrugBank id or FDA number, …',
  description:
    'Resolves a code of one of the sources\' systems to the catalogue\'s concepts: `mesh` and `omim` (diseases, by id or alternative id), `doid` (conditions, and diseases that carry the DOID), `drugbank`, `fda-application` and `fda-product` (`<ApplNo>-<ProductNo>`) for drugs, `atc` (categories), `loinc` (lab tests). The code may carry its prefix (`MESH:D003920`) or not (`D003920`).',
  tag,
  access,
  request: {
    query: z.object({
      system: queryChoice(CODE_SYSTEMS).meta({ description: 'The code system.' }),
      code: queryText(termMaxLength, 'is required: the code to look up').meta({ description: 'The code.', pattern: NON_BLANK_PATTERN }),
    }),
  },
  responses: referenceJsonResponses('The code as the catalogue writes it, and its concepts.', schemas.codeLookup, 'The code names nothing.'),
});

export const suggest = operation({
  method: 'get',
  path: '/api/v1/suggest',
  operationId: 'suggest',
  summary: 'Type-ahead across diseases, drugs, lab tests and conditions: a short ranked list for a partial word',
  description: `Completes a partial word of ${REFERENCE_LIMITS.suggestMinLength} characters or more from names and synonyms (brands and ingredients for drugs, abbreviations and reported components for lab tests), tolerating typos, best first; answered as the disease and drug searches rank (docs/SEARCH.md, "Type-ahead").`,
  tag,
  access,
  request: {
    query: z.object({
      q: queryText(termMaxLength, 'is required: the text typed so far')
        .min(REFERENCE_LIMITS.suggestMinLength, { message: `must be at least ${REFERENCE_LIMITS.suggestMinLength} characters`, abort: true })
        .meta({
        description: `What the user typed so far, at least ${REFERENCE_LIMITS.suggestMinLength} characters.`,
        pattern: NON_BLANK_PATTERN,
      }),
      types: queryText(REFERENCE_LIMITS.termListMaxLength)
        .optional()
        .meta({
          description: `Comma list of the vocabularies: ${Object.keys(SUGGEST_TYPES).join(', ')}. Default: all of them.`,
          pattern: SUGGEST_TYPES_PATTERN,
        }),
      limit: queryInteger(REFERENCE_LIMITS.suggestLimit).meta({ description: 'Suggestions at most.' }),
    }),
  },
  responses: {
    ...referenceJsonResponses('The suggestions, best first (empty when nothing is near).', schemas.suggestions),
    '429': searchStopped,
  },
});

export const fhirMetadata = operation({
  method: 'get',
  path: '/api/v1/metadata',
  operationId: 'fhirCapabilities',
  summary: 'The FHIR CapabilityStatement: resources, interactions and search parameters served',
  description:
    'For FHIR clients whose base is `/api/v1`. Lists what the operations above answer with `_format=fhir`, derived from their declarations.',
  tag,
  access: { public: true },
  request: { query: z.object({ _format: format }) },
  responses: {
    '200': {
      description: 'The CapabilityStatement.',
      content: {
        'application/fhir+json': z
          .looseObject({ resourceType: z.literal('CapabilityStatement'), fhirVersion: z.string(), rest: z.array(z.looseObject({})) })
          .meta({ description: 'FHIR R4 CapabilityStatement.' }),
      },
    },
  },
});
