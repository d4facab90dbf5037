import { Client } from 'pg';
import { bearer, uncached, type BenchContext, type Scenario } from '../context';
import { cpuVerdict } from '../cpu/per-request';
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
  nextCursor?: string;
}

async function drugsWithDosages(context: BenchContext): Promise<string[]> {
  const client = new Client({ connectionString: context.databaseUrl('reference') });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT d.name FROM drugs d
        WHERE EXISTS (SELECT 1 FROM dosages s WHERE s.drug_pk = d.id) AND length(d.name) <= 100
        ORDER BY md5(d.name) LIMIT 2000`,
    );
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

/** Every page of GET /api/v1/drugs, as the paths that fetch them. */
async function walkDrugs(context: BenchContext): Promise<string[]> {
  const pages: string[] = [];
  let path = '/api/v1/drugs';
  for (;;) {
    pages.push(path);
    const response = await fetch(`${context.gatewayUrl}${path}`, { headers: bearer(context.keys.reader) });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    const page = (await response.json()) as DrugPage;
    if (!page.nextCursor) return pages;
    path = `/api/v1/drugs?cursor=${encodeURIComponent(page.nextCursor)}`;
  }
}

const asReader = (context: BenchContext, paths: string[]): RequestSpec[] =>
  paths.map((path) => ({ path, headers: uncached(context.keys.reader) }));

export const labSearch: Scenario = async (context) => {
  const paths = LAB_QUERIES.map((n) => `/api/v1/labs?n=${encodeURIComponent(n)}`);
  const labs = context.record({ scenario: 'labs, several terms', target: 'system', result: await context.load(context.gatewayUrl, asReader(context, paths)) });
  context.judge(cpuVerdict('labs, several terms', labs, 'gateway', 0.35));
};

export const drugsAndDosages: Scenario = async (context) => {
  const pages = await walkDrugs(context);
  context.note('drug pages walked', pages.length, 'pages');
  const walk = context.record({
    scenario: 'drugs page walk',
    target: 'system',
    result: await context.load(context.gatewayUrl, asReader(context, pages)),
  });
  context.judge(cpuVerdict('drugs page walk', walk, 'gateway', 0.35));
  // Names of drugs that have dosages (Drugs@FDA's), as a user types them: lower case, half the time only the first word.
  const queries = (await drugsWithDosages(context)).map((name) => {
    const lower = name.toLowerCase();
    return context.random() < 0.5 ? lower.split(/\s+/)[0] : lower;
  });
  context.record({
    scenario: 'dosages by drug name',
    target: 'system',
    result: await context.load(
      context.gatewayUrl,
      asReader(context, queries.map((n) => `/api/v1/dosages?n=${encodeURIComponent(n)}`)),
    ),
  });
};
