import { bearer, type BenchContext, type Scenario } from '../context';
import type { RequestSpec } from '../load/load-spec';

// Several terms a search, as a clinician types them: any term may match a test, category or subcategory.
const LAB_QUERIES = [
  'glucose,hba1c',
  'sodium,potassium,chloride',
  'haemoglobin,ferritin',
  'thyroid',
  'cholesterol,triglycerides',
  'culture',
  'creatinine,urea',
  'vitamin',
  'liver,bilirubin',
  'haematology,coagulation',
];

interface DrugPage {
  drugs: { name: string }[];
  nextCursor?: string;
}

/** Every page of GET /api/v1/drugs, as the paths that fetch them. */
async function walkDrugs(context: BenchContext): Promise<{ pages: string[]; names: string[] }> {
  const pages: string[] = [];
  const names: string[] = [];
  let path = '/api/v1/drugs';
  for (;;) {
    pages.push(path);
    const response = await fetch(`${context.gatewayUrl}${path}`, { headers: bearer(context.keys.reader) });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    const page = (await response.json()) as DrugPage;
    names.push(...page.drugs.map((drug) => drug.name));
    if (!page.nextCursor) return { pages, names };
    path = `/api/v1/drugs?cursor=${encodeURIComponent(page.nextCursor)}`;
  }
}

const asReader = (context: BenchContext, paths: string[]): RequestSpec[] =>
  paths.map((path) => ({ path, headers: bearer(context.keys.reader) }));

export const labSearch: Scenario = async (context) => {
  const paths = LAB_QUERIES.map((n) => `/api/v1/labs?n=${encodeURIComponent(n)}`);
  context.record({ scenario: 'labs, several terms', target: 'system', result: await context.load(context.gatewayUrl, asReader(context, paths)) });
};

export const drugsAndDosages: Scenario = async (context) => {
  const { pages, names } = await walkDrugs(context);
  context.note('drug pages walked', pages.length, 'pages');
  context.record({
    scenario: 'drugs page walk',
    target: 'system',
    result: await context.load(context.gatewayUrl, asReader(context, pages)),
  });
  // Drug names as a user types them: lower case, first word only for multi-word names half the time.
  const queries = names.slice(0, 2_000).map((name) => {
    const lower = name.toLowerCase();
    return context.random() < 0.5 ? lower.split(/\s+/)[0] : lower;
  });
  context.record({
    scenario: 'dosages by drug name',
    target: 'system',
    result: await context.load(
      context.gatewayUrl,
      asReader(context, queries.map((n) => `/dosages?n=${encodeURIComponent(n)}`)),
    ),
  });
};
