import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * The shapes of the bundled catalogue files (apps/reference/default-data/*.json).
 * They are checked on load so that a slip in a hand-edited file stops the
 * service with the file and the field named, instead of loading half a dataset.
 */
const text = z.string().min(1);
/** Absent or null in the file: left out of the record. */
const optionalText = text.nullish().transform((value) => value ?? undefined);

const labTest = z.object({
  loinc: text.optional(),
  name: text,
  categoryName: text,
  subCategoryName: text,
  normalRange: text,
  units: text,
  description: text,
  methodology: text,
  duration: text,
  testResults: z.array(z.object({ name: text, normalRange: text, units: text })),
});

const drug = z.object({
  name: text,
  drugbankId: text.optional(),
  atcCodes: z.array(text),
  description: text,
  dosages: z.array(z.object({ form: text, physicalForm: text, adminMethod: text, strength: text })).min(1),
});

const category = z.object({ code: text, name: text, level: z.number().int(), parentCode: text.optional() });

const condition = z.object({
  name: text,
  doid: text,
  description: text,
  indications: z.array(z.object({ drug: text, type: z.enum(['treats', 'symptomatic']) })),
});

const premise = z.object({
  code: text,
  name: text,
  type: z.enum(['pharmacy', 'hospital', 'clinic', 'laboratory']),
  address: z.object({
    line1: text,
    line2: optionalText,
    city: text,
    region: optionalText,
    postalCode: optionalText,
    country: text,
  }),
  phone: text,
  openingHours: text,
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  services: z.array(text),
  sampleData: z.literal(true),
});

const foodInteraction = z.object({
  drug: text,
  food: text,
  severity: z.enum(['major', 'moderate', 'minor']),
  effect: text,
  advice: text,
});

const FILES = {
  labTests: ['lab-tests.json', labTest],
  drugs: ['drugs.json', drug],
  categories: ['drug-categories.json', category],
  conditions: ['conditions.json', condition],
  premises: ['premises.json', premise],
  foodInteractions: ['food-interactions.json', foodInteraction],
} as const;

type Files = typeof FILES;
export type CatalogueFiles = { [K in keyof Files]: z.infer<Files[K][1]>[] };

async function readList<T extends z.ZodType>(dataDir: string, file: string, schema: T): Promise<z.infer<T>[]> {
  const parsed = z.array(schema).safeParse(JSON.parse(await readFile(join(dataDir, file), 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${join(dataDir, file)}: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

export async function readCatalogueFiles(dataDir: string): Promise<CatalogueFiles> {
  const entries = await Promise.all(
    Object.entries(FILES).map(async ([key, [file, schema]]) => [key, await readList(dataDir, file, schema)] as const),
  );
  return Object.fromEntries(entries) as CatalogueFiles;
}
