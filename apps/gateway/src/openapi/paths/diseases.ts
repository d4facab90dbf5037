import { booleanParam, cursorParam, formatParam, operation, problem, queryParam, ref, referenceResponses } from '../builders';

const stringList = { type: 'array', items: { type: 'string' } };

export const diseaseSchemas = {
  DiseaseName: {
    type: 'object',
    description: 'A disease in basic form (`r=false`).',
    required: ['Disease_Name'],
    additionalProperties: false,
    properties: { Disease_Name: { type: 'string' } },
  },
  Disease: {
    type: 'object',
    description: 'A disease of the CTD MEDIC vocabulary, in detailed form (`r=true`).',
    required: [
      'id',
      'Disease_Name',
      'Disease_ID',
      'Alternative_Disease_IDs',
      'Definition',
      'Parent_IDs',
      'Tree_Numbers',
      'Parent_Tree_Numbers',
      'Synonyms',
      'Slim_Mappings',
    ],
    properties: {
      id: { type: 'string' },
      Disease_Name: { type: 'string' },
      Disease_ID: { type: 'string', description: 'MeSH or OMIM id, e.g. `MESH:D003920`.' },
      Alternative_Disease_IDs: { type: 'string', description: 'Other ids, separated by `|`.' },
      Definition: { type: 'string' },
      Parent_IDs: { type: 'string', description: 'Parent ids, separated by `|`.' },
      Tree_Numbers: { type: 'string', description: 'MeSH tree numbers, separated by `|`.' },
      Parent_Tree_Numbers: { type: 'string', description: 'Separated by `|`.' },
      Synonyms: stringList,
      Slim_Mappings: stringList,
    },
  },
};

export const diseasePaths = {
  '/api/v1/diseases': {
    get: operation({
      operationId: 'searchDiseases',
      summary: 'Search diseases by name, fuzzy or exact',
      description:
        'Without `n`, every disease. With `n`, a typo-tolerant search over names and synonyms, best match first; with `e=true`, case-insensitive equality with a name or synonym.',
      tags: ['Reference'],
      permission: 'reference:read',
      parameters: [
        queryParam('n', { type: 'string', maxLength: 200 }, 'Disease name to search for.'),
        booleanParam('e', 'Exact match instead of fuzzy search.', false),
        booleanParam('r', 'Detailed records (`true`) or names only (`false`).', true),
        booleanParam('s', 'Order by name instead of relevance.', false),
        queryParam('sOrder', { enum: ['asc', 'desc'], default: 'asc' }, 'Name order when `s=true`.'),
        queryParam('b', { type: 'integer', minimum: 1, maximum: 250, default: 25 }, 'Batch size.'),
        cursorParam,
        formatParam,
      ],
      responses: {
        ...referenceResponses(
          'A page of diseases.',
          {
            type: 'object',
            required: ['diseases'],
            properties: {
              diseases: { type: 'array', items: { oneOf: [ref('Disease'), ref('DiseaseName')] } },
              nextCursor: { type: 'string' },
            },
          },
          'ValueSet (expansion.contains: system, code, display, synonyms as designations)',
          'No disease matches.',
        ),
        '429': problem(
          'The search ran longer than the reference service allows at its database and was stopped (its statement timeout); `Retry-After` says when to try again.',
        ),
      },
    }),
  },
};
