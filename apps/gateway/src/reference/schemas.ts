import { z } from 'zod';
import { DISEASE, jsonOf, jsonShapeOf, SUGGEST_TYPES, type referenceV1 } from '@libs/contracts';

/** What the reference area answers, as docs/REFERENCE.md describes it. */

const text = z.string();
const nullableText = z.string().nullable();
const texts = z.array(text);

export const diseaseName = z
  .object({ Disease_Name: text })
  .strict()
  .meta({ id: 'DiseaseName', description: 'A disease in basic form (`r=false`).' });

/** A disease's fields follow from their declaration (libs/contracts), in the names clients have always been given. */
export const disease = z
  .object({ id: text, ...jsonShapeOf(DISEASE) })
  .meta({ id: 'Disease', description: 'A disease of the CTD MEDIC vocabulary, in detailed form (`r=true`).' });

export const diseaseJson = (message: referenceV1.Disease) => ({ id: message.id, ...jsonOf(DISEASE, message) });

export const labTest = z
  .object({
    id: text,
    name: text,
    normalRange: z.string().meta({ description: 'Adult reference range, e.g. `3.5-5.1`.' }),
    units: text,
    categoryName: text,
    subCategoryName: text,
    description: text.optional(),
    methodology: text.optional(),
    duration: z.string().optional().meta({ description: 'Turnaround time.' }),
    testResults: z
      .array(z.object({ name: text, normalRange: text, units: text }))
      .optional()
      .meta({ description: 'The components the test reports.' }),
  })
  .meta({
    id: 'LabTest',
    description: 'A laboratory test. `description`, `methodology`, `duration` and `testResults` only with `r=true`.',
  });

export const dosage = z
  .object({
    form: z.string().meta({ examples: ['tablet'] }),
    physicalForm: z.string().meta({ examples: ['solid', 'liquid', 'semi-solid', 'powder', 'gas'] }),
    adminMethod: z.string().meta({ description: 'Route of administration.', examples: ['oral'] }),
    strength: z.string().meta({ examples: ['500 mg'] }),
    id: text,
  })
  .meta({ id: 'Dosage' });

export const drugGroup = z.object({ drugName: text, dosages: z.array(dosage) }).meta({ id: 'DrugGroup' });

export const drug = z
  .object({
    id: text,
    name: text,
    drugbankId: z.string().nullable().meta({ examples: ['DB00682'] }),
    atcCodes: texts.meta({ description: 'WHO ATC level 5 codes.' }),
    description: text,
  })
  .meta({ id: 'Drug' });

const drugRef = z.object({ id: text, name: text, drugbankId: nullableText.optional() });

export const drugCategory = z
  .object({
    code: text,
    name: text,
    level: z.int().min(1).max(5),
    parentCode: nullableText,
    drugs: z.array(drugRef).optional(),
  })
  .meta({
    id: 'DrugCategory',
    description: 'A WHO ATC group, level 1 (e.g. `A`) to 5 (e.g. `A10BA02`). HTML is stripped from all text. `drugs` only with `r=true`.',
  });

export const foodInteraction = z
  .object({
    id: text,
    food: z.string().nullable().meta({ description: 'Null when the source names the food only in the advice.' }),
    severity: z.enum(['major', 'moderate', 'minor']).nullable(),
    effect: nullableText,
    advice: text,
  })
  .meta({ id: 'FoodInteraction' });

export const condition = z
  .object({
    id: text,
    name: text,
    doid: z.string().nullable().meta({ description: 'Disease Ontology id.' }),
    description: text,
    drugs: z.array(z.object({ id: text, name: text })).optional(),
    indications: z
      .array(
        z.object({
          drugName: text,
          drugId: z.string().nullable().meta({ description: 'Null when the drug is not in the catalogue.' }),
          drugbankId: nullableText,
          type: z.enum(['treats', 'symptomatic']).meta({ description: '`treats`: disease-modifying.' }),
        }),
      )
      .optional(),
  })
  .meta({ id: 'Condition', description: '`drugs` and `indications` only with `r=true`.' });

export const premise = z
  .object({
    id: text,
    code: text,
    name: text,
    type: z.enum(['pharmacy', 'hospital', 'clinic', 'laboratory']),
    city: text,
    country: z.string().meta({ description: 'ISO 3166-1 alpha-2.' }),
    sampleData: z.boolean(),
    address: z
      .object({ line1: text, line2: nullableText, city: text, region: nullableText, postalCode: nullableText, country: text })
      .optional(),
    phone: nullableText.optional(),
    openingHours: z.string().nullable().optional().meta({ description: 'OpenStreetMap `opening_hours` syntax.' }),
    location: z.object({ latitude: z.number(), longitude: z.number() }).nullable().optional(),
    services: texts.optional(),
  })
  .meta({
    id: 'Premise',
    description:
      'A pharmacy, hospital, clinic or laboratory. The default dataset holds fictional sample premises (`sampleData: true`). The other fields only with `r=true`.',
  });

export const codeLookup = z
  .object({
    code: z.string().meta({ description: 'The code as the catalogue writes it, e.g. `MESH:D003920`.', examples: ['MESH:D003920'] }),
    concepts: z.array(
      z.object({
        type: z.enum(['disease', 'condition', 'drug', 'category', 'lab']),
        id: z.string().meta({ description: 'Its id in its list (`/api/v1/drugs/{id}`, …); a category\'s is its ATC code.' }),
        name: text,
      }),
    ),
  })
  .meta({ id: 'CodeLookup' });

export const suggestions = z
  .object({
    suggestions: z.array(
      z.object({
        type: z.enum(Object.values(SUGGEST_TYPES)),
        id: z.string().meta({ description: 'Its id in its list: `/api/v1/drugs/{id}`, or the id of the disease, lab test or condition in its list.' }),
        display: z.string().meta({ description: 'The concept\'s name.' }),
        matched: z
          .string()
          .nullable()
          .meta({ description: 'The synonym, brand, ingredient, abbreviation or reported component that matched, lower-cased as indexed; null when the name did.' }),
      }),
    ),
  })
  .meta({ id: 'Suggestions' });
