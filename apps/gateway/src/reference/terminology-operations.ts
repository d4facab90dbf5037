import { z } from 'zod';
import { CODE_SYSTEMS, REFERENCE_LIMITS, VALUE_SETS, type ValueSetName } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { NON_BLANK_PATTERN, queryInteger, queryText } from '../platform/routing/query-fields';
import type { FhirInteraction } from '../platform/routing/responses';
import { codeSystemUrl, valueSetUrl } from './fhir/terminology';
import { referenceFhirResponses } from './reference-response';

/**
 * FHIR terminology (docs/REFERENCE.md, "FHIR terminology"): the code systems
 * and value sets as CodeSystem and ValueSet resources, and the standard
 * operations on them, at FHIR's own paths under the base /api/v1. They answer
 * FHIR only, and their errors are OperationOutcomes.
 */

const tag = 'Reference';
const access = { key: 'reference:read' } as const;
const { termMaxLength, expandCount, expandOffset, suggestMinLength } = REFERENCE_LIMITS;

const fhirOperation = (resourceType: 'CodeSystem' | 'ValueSet', name: string, answers: string): FhirInteraction => ({
  resourceType,
  interaction: 'operation',
  operation: { name, definition: `http://hl7.org/fhir/OperationDefinition/${resourceType}-${name}`, answers },
});
/** The URIs this server knows, as enums: the document lists them, and anything else is a 400 naming the parameter. */
const codeSystemUri = (description: string) => z.enum(CODE_SYSTEMS.map(codeSystemUrl) as [string, ...string[]]).meta({ description });
const valueSetUri = (description: string) =>
  z.enum((Object.keys(VALUE_SETS) as ValueSetName[]).map(valueSetUrl) as [string, ...string[]]).meta({ description });
const code = queryText(termMaxLength, 'is required: the code').meta({ description: 'The code.', pattern: NON_BLANK_PATTERN });
const display = queryText(termMaxLength).optional().meta({ description: 'A display to check against the code\'s (ignoring case).' });
const byId = (ids: readonly string[]) => z.object({ id: z.string().meta({ description: `One of: ${ids.join(', ')}.` }) });
const valueSetUrlDescription = 'The value set\'s canonical URL (`urn:clinical-finance:value-set:<id>`).';

export const listCodeSystems = operation({
  method: 'get',
  path: '/api/v1/CodeSystem',
  operationId: 'listCodeSystems',
  summary: 'The code systems the catalogue resolves, as FHIR CodeSystem resources',
  tag,
  access,
  request: { query: z.object({ url: codeSystemUri('Only the code system of this URI.').optional() }) },
  responses: referenceFhirResponses('A searchset Bundle of CodeSystems (concepts not listed: use $lookup).', { resourceType: 'CodeSystem', interaction: 'search-type' }),
});

export const getCodeSystem = operation({
  method: 'get',
  path: '/api/v1/CodeSystem/{id}',
  operationId: 'getCodeSystem',
  summary: 'One code system as a FHIR CodeSystem',
  tag,
  access,
  request: { path: byId(CODE_SYSTEMS) },
  responses: referenceFhirResponses('The CodeSystem.', { resourceType: 'CodeSystem', interaction: 'read' }, 'No code system has that id.'),
});

export const lookupCodeSystemCode = operation({
  method: 'get',
  path: '/api/v1/CodeSystem/$lookup',
  operationId: 'lookupCodeSystemCode',
  summary: 'FHIR CodeSystem/$lookup: a code\'s display (`MESH:D003920` or `D003920` with the MeSH URI)',
  description: 'The code is resolved as `GET /api/v1/codes` resolves it. An unknown system is a 400, a code that names nothing a 404.',
  tag,
  access,
  request: { query: z.object({ system: codeSystemUri('The code system\'s URI (see `GET /api/v1/CodeSystem`).'), code }) },
  responses: referenceFhirResponses('Parameters: `name` (the system), `display`, and a `designation` per further concept.', fhirOperation('CodeSystem', 'lookup', 'Parameters'), 'The code names nothing.'),
});

export const validateCodeSystemCode = operation({
  method: 'get',
  path: '/api/v1/CodeSystem/$validate-code',
  operationId: 'validateCodeSystemCode',
  summary: 'FHIR CodeSystem/$validate-code: whether a code (and its display) is valid in a code system',
  tag,
  access,
  request: { query: z.object({ url: codeSystemUri('The code system\'s URI.'), code, display }) },
  responses: referenceFhirResponses('Parameters: `result`, `message` when false, `display`.', fhirOperation('CodeSystem', 'validate-code', 'Parameters')),
});

export const listValueSets = operation({
  method: 'get',
  path: '/api/v1/ValueSet',
  operationId: 'listValueSets',
  summary: 'The value sets FHIR clients expand: one per vocabulary',
  tag,
  access,
  request: { query: z.object({ url: valueSetUri('Only the value set of this canonical URL.').optional() }) },
  responses: referenceFhirResponses('A searchset Bundle of ValueSet definitions.', { resourceType: 'ValueSet', interaction: 'search-type' }),
});

export const getValueSet = operation({
  method: 'get',
  path: '/api/v1/ValueSet/{id}',
  operationId: 'getValueSet',
  summary: 'One value set\'s definition',
  tag,
  access,
  request: { path: byId(Object.keys(VALUE_SETS)) },
  responses: referenceFhirResponses('The ValueSet.', { resourceType: 'ValueSet', interaction: 'read' }, 'No value set has that id.'),
});

export const expandValueSet = operation({
  method: 'get',
  path: '/api/v1/ValueSet/$expand',
  operationId: 'expandValueSet',
  summary: 'FHIR ValueSet/$expand: a page of a value set\'s concepts, filtered, in name order',
  description: `\`filter\` (at least ${suggestMinLength} characters) is a case-insensitive prefix of any word of a name or synonym. Page with \`offset\` and \`count\`: the order (name, then id) is total, so the pages of one filter neither repeat nor skip a concept; \`total\` counts them all.`,
  tag,
  access,
  request: {
    query: z.object({
      url: valueSetUri(valueSetUrlDescription),
      filter: queryText(termMaxLength)
        .min(suggestMinLength, { message: `must be at least ${suggestMinLength} characters`, abort: true })
        .optional()
        .meta({ description: 'A prefix of a word of the name or of a synonym.' }),
      count: queryInteger(expandCount).meta({ description: 'Concepts in the page.' }),
      offset: queryInteger(expandOffset).meta({ description: 'Concepts skipped: paging goes this deep at most.' }),
    }),
  },
  responses: referenceFhirResponses('The ValueSet with its expansion: `total`, `offset`, the parameters used and the page in `contains`.', fhirOperation('ValueSet', 'expand', 'ValueSet')),
});

export const validateValueSetCode = operation({
  method: 'get',
  path: '/api/v1/ValueSet/$validate-code',
  operationId: 'validateValueSetCode',
  summary: 'FHIR ValueSet/$validate-code: whether a coding (and its display) is in a value set',
  tag,
  access,
  request: { query: z.object({ url: valueSetUri(valueSetUrlDescription), system: codeSystemUri('The code system\'s URI.'), code, display }) },
  responses: referenceFhirResponses('Parameters: `result`, `message` when false, `display`.', fhirOperation('ValueSet', 'validate-code', 'Parameters')),
});
