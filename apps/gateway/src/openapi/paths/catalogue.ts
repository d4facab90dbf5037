import {
  booleanParam,
  cursorParam,
  formatParam,
  operation,
  pathParam,
  queryParam,
  ref,
  referenceResponses,
  type Schema,
} from '../builders';

const page = (key: string, item: Schema): Schema => ({
  type: 'object',
  required: [key],
  properties: { [key]: { type: 'array', items: item }, nextCursor: { type: 'string' } },
});

const commaList = (name: string, description: string) =>
  queryParam(name, { type: 'string', maxLength: 2000 }, `${description} A comma-separated list (at most 20 terms).`);

const id = (what: string) => pathParam('id', `${what} id (a decimal string).`);

const read = (operationId: string, summary: string, parameters: unknown[], responses: Record<string, unknown>, description?: string) =>
  operation({
    operationId,
    summary,
    description,
    tags: ['Reference'],
    permission: 'reference:read',
    parameters: [...parameters, formatParam],
    responses,
  });

const dosageSearch = read(
  'searchDosages',
  'Dosages by drug name, grouped by drug',
  [
    queryParam('n', { type: 'string', minLength: 1, maxLength: 200 }, 'Required: a substring of the drug name.', true),
    queryParam('b', { type: 'integer', minimum: 1, maximum: 500, default: 250 }, 'Dosage entries per page; a drug group may continue on the next page.'),
    cursorParam,
  ],
  referenceResponses('A page of drug groups.', page('dosages', ref('DrugGroup')), 'Bundle of MedicationKnowledge', 'No dosage matches.'),
);

const dosageById = read(
  'getDosage',
  'One dosage',
  [id('Dosage')],
  referenceResponses(
    'The dosage and its drug.',
    { type: 'object', required: ['drugName', 'dosage'], properties: { drugName: { type: 'string' }, dosage: ref('Dosage') } },
    'MedicationKnowledge',
    'No dosage has that id.',
  ),
);

/** The same operation under a second path gets its own operationId. */
const alias = (op: ReturnType<typeof read>, operationId: string) => ({ ...op, operationId });

export const cataloguePaths = {
  '/api/v1/labs': {
    get: read(
      'searchLabTests',
      'Laboratory tests by test, category or subcategory name',
      [
        commaList('n', 'A test matches when any term is a substring of its name, category or subcategory.'),
        booleanParam('r', 'Add description, methodology, turnaround and result components.', false),
        cursorParam,
      ],
      referenceResponses('A page of 25 tests.', page('tests', ref('LabTest')), 'Bundle of ObservationDefinition', 'No test matches.'),
    ),
  },
  '/dosages': { get: dosageSearch },
  '/api/v1/dosages': { get: alias(dosageSearch, 'searchDosagesV1') },
  '/dosages/{id}': { get: dosageById },
  '/api/v1/dosages/{id}': { get: alias(dosageById, 'getDosageV1') },
  '/api/v1/drugs': {
    get: read(
      'listDrugs',
      'Every drug, 50 a page',
      [cursorParam],
      referenceResponses('A page of 50 drugs.', page('drugs', ref('Drug')), 'Bundle of MedicationKnowledge'),
      'The page size is fixed: `BATCH_COUNT` or `b`, with any value, is refused with 400.',
    ),
  },
  '/api/v1/drugs/{id}': {
    get: read(
      'getDrug',
      'One drug with its dosages and ATC categories',
      [id('Drug')],
      referenceResponses(
        'The drug.',
        {
          allOf: [
            ref('Drug'),
            {
              type: 'object',
              required: ['dosages', 'categories'],
              properties: {
                dosages: { type: 'array', items: ref('Dosage') },
                categories: { type: 'array', items: ref('DrugCategory') },
              },
            },
          ],
        },
        'MedicationKnowledge',
        'No drug has that id.',
      ),
    ),
  },
  '/api/v1/drugs/{id}/food-interactions': {
    get: read(
      'getDrugFoodInteractions',
      "A drug's interactions with food, most severe first",
      [id('Drug')],
      referenceResponses(
        'The drug and its food interactions (possibly none).',
        {
          type: 'object',
          required: ['drug', 'interactions'],
          properties: {
            drug: { type: 'object', required: ['id', 'name', 'drugbankId'], properties: { id: { type: 'string' }, name: { type: 'string' }, drugbankId: { type: ['string', 'null'] } } },
            interactions: { type: 'array', items: ref('FoodInteraction') },
          },
        },
        'Bundle of MedicinalProductInteraction',
        'No drug has that id.',
      ),
    ),
  },
  '/api/v1/categories': {
    get: read(
      'searchDrugCategories',
      'WHO ATC drug categories',
      [
        commaList('c', 'A category matches when a term equals its code or is a substring of its name.'),
        booleanParam('r', 'Add the related drugs.', false),
        cursorParam,
      ],
      referenceResponses('A page of 25 categories (possibly empty).', page('categories', ref('DrugCategory')), 'ValueSet'),
    ),
  },
  '/api/v1/conditions': {
    get: read(
      'searchConditions',
      'Conditions with their drugs and indications',
      [
        queryParam('q', { type: 'string', maxLength: 200 }, 'A substring of the condition name.'),
        booleanParam('r', 'Add related drugs and indications.', false),
        cursorParam,
      ],
      referenceResponses('A page of 10 conditions (possibly empty).', page('conditions', ref('Condition')), 'ValueSet'),
    ),
  },
  '/api/v1/premises': {
    get: read(
      'searchPremises',
      'Pharmacies, hospitals, clinics and laboratories',
      [
        commaList('n', 'A premise matches when any term is a substring of its name.'),
        booleanParam('r', 'Add address, contact, hours, position and services.', false),
        cursorParam,
      ],
      referenceResponses('A page of 25 premises (possibly empty).', page('premises', ref('Premise')), 'Bundle of Location'),
    ),
  },
};
