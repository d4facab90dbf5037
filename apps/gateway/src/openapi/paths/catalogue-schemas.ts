import type { Schema } from '../builders';

const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
const texts = { type: 'array', items: text };
const drugRef = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: text, name: text, drugbankId: nullableText },
};

/** The catalogue's records, as docs/REFERENCE.md describes them. */
export const catalogueSchemas: Record<string, Schema> = {
  LabTest: {
    type: 'object',
    description: 'A laboratory test. `description`, `methodology`, `duration` and `testResults` only with `r=true`.',
    required: ['id', 'name', 'normalRange', 'units', 'categoryName', 'subCategoryName'],
    properties: {
      id: text,
      name: text,
      normalRange: { type: 'string', description: 'Adult reference range, e.g. `3.5-5.1`.' },
      units: text,
      categoryName: text,
      subCategoryName: text,
      description: text,
      methodology: text,
      duration: { type: 'string', description: 'Turnaround time.' },
      testResults: {
        type: 'array',
        description: 'The components the test reports.',
        items: {
          type: 'object',
          required: ['name', 'normalRange', 'units'],
          properties: { name: text, normalRange: text, units: text },
        },
      },
    },
  },
  Dosage: {
    type: 'object',
    required: ['form', 'physicalForm', 'adminMethod', 'strength', 'id'],
    properties: {
      form: { type: 'string', examples: ['tablet'] },
      physicalForm: { type: 'string', examples: ['solid', 'liquid', 'semi-solid', 'powder', 'gas'] },
      adminMethod: { type: 'string', description: 'Route of administration.', examples: ['oral'] },
      strength: { type: 'string', examples: ['500 mg'] },
      id: text,
    },
  },
  DrugGroup: {
    type: 'object',
    required: ['drugName', 'dosages'],
    properties: { drugName: text, dosages: { type: 'array', items: { $ref: '#/components/schemas/Dosage' } } },
  },
  Drug: {
    type: 'object',
    required: ['id', 'name', 'drugbankId', 'atcCodes', 'description'],
    properties: {
      id: text,
      name: text,
      drugbankId: { type: ['string', 'null'], examples: ['DB00682'] },
      atcCodes: { ...texts, description: 'WHO ATC level 5 codes.' },
      description: text,
    },
  },
  DrugCategory: {
    type: 'object',
    description: 'A WHO ATC group, level 1 (e.g. `A`) to 5 (e.g. `A10BA02`). HTML is stripped from all text. `drugs` only with `r=true`.',
    required: ['code', 'name', 'level', 'parentCode'],
    properties: {
      code: text,
      name: text,
      level: { type: 'integer', minimum: 1, maximum: 5 },
      parentCode: nullableText,
      drugs: { type: 'array', items: drugRef },
    },
  },
  FoodInteraction: {
    type: 'object',
    required: ['id', 'food', 'severity', 'effect', 'advice'],
    properties: {
      id: text,
      food: { type: ['string', 'null'], description: 'Null when the source names the food only in the advice.' },
      severity: { enum: ['major', 'moderate', 'minor', null] },
      effect: nullableText,
      advice: text,
    },
  },
  Condition: {
    type: 'object',
    description: '`drugs` and `indications` only with `r=true`.',
    required: ['id', 'name', 'doid', 'description'],
    properties: {
      id: text,
      name: text,
      doid: { type: ['string', 'null'], description: 'Disease Ontology id.' },
      description: text,
      drugs: { type: 'array', items: { type: 'object', required: ['id', 'name'], properties: { id: text, name: text } } },
      indications: {
        type: 'array',
        items: {
          type: 'object',
          required: ['drugName', 'drugId', 'drugbankId', 'type'],
          properties: {
            drugName: text,
            drugId: { type: ['string', 'null'], description: 'Null when the drug is not in the catalogue.' },
            drugbankId: nullableText,
            type: { enum: ['treats', 'symptomatic'], description: '`treats`: disease-modifying.' },
          },
        },
      },
    },
  },
  Premise: {
    type: 'object',
    description: 'A pharmacy, hospital, clinic or laboratory. The default dataset holds fictional sample premises (`sampleData: true`). The other fields only with `r=true`.',
    required: ['id', 'code', 'name', 'type', 'city', 'country', 'sampleData'],
    properties: {
      id: text,
      code: text,
      name: text,
      type: { enum: ['pharmacy', 'hospital', 'clinic', 'laboratory'] },
      city: text,
      country: { type: 'string', description: 'ISO 3166-1 alpha-2.' },
      sampleData: { type: 'boolean' },
      address: {
        type: 'object',
        required: ['line1', 'city', 'country'],
        properties: {
          line1: text,
          line2: nullableText,
          city: text,
          region: nullableText,
          postalCode: nullableText,
          country: text,
        },
      },
      phone: nullableText,
      openingHours: { type: ['string', 'null'], description: 'OpenStreetMap `opening_hours` syntax.' },
      location: {
        type: ['object', 'null'],
        required: ['latitude', 'longitude'],
        properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
      },
      services: texts,
    },
  },
};
