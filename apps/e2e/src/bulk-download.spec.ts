import { BULK_DATASETS, type BulkDataset } from '@libs/contracts';
import { createApiClient } from '@libs/sdk';
import { peakRssMb, startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { download, fetchLines, openDownload } from './bulk/bulk-download';
import { linesFromEachDrug } from './bulk/drug-lines';
import { fhirProblems } from './fhir';
import { api } from './http';
import { scrape, total } from './metrics';

jest.setTimeout(180_000);

/**
 * The table whose rows are a dataset's records: the count a download must reach (the default data joins each food
 * interaction to one drug; the lines of both by-drug datasets are checked against each drug's own answers below).
 */
const TABLES: Record<BulkDataset, string> = {
  diseases: 'diseases',
  drugs: 'drugs',
  labs: 'lab_tests',
  categories: 'drug_categories',
  conditions: 'conditions',
  premises: 'premises',
  dosages: 'dosages',
  'food-interactions': 'food_interactions',
};
/** The datasets with a FHIR resource per record, and the search whose FHIR entries are the same resources. */
const FHIR_SEARCHES: [BulkDataset, string, string][] = [
  ['drugs', '/api/v1/drugs', 'MedicationKnowledge'],
  ['labs', '/api/v1/labs', 'ObservationDefinition'],
  ['premises', '/api/v1/premises', 'Location'],
  ['dosages', '/api/v1/dosages?n=a&b=500', 'MedicationKnowledge'],
];
/** Diseases with a long definition of random hex (gzip cannot shrink it much): a set far larger than socket buffers. */
const LARGE_DISEASES = 30_000;

describe('bulk download of the reference datasets', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 120_000);
  afterAll(() => system?.shutdown());

  const url = (path: string) => `${system.gatewayUrl}${path}`;
  const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${system.keys.reader}`, 'accept-encoding': 'gzip', ...extra });
  const countOf = (dataset: BulkDataset) =>
    withPgClient(system.databaseUrl('reference'), async (client) => Number((await client.query(`SELECT count(*) AS n FROM ${TABLES[dataset]}`)).rows[0].n));
  const referenceCalls = async () => total(await scrape(system.metricsUrl('gateway')), 'upstream_request_duration_seconds_count', { upstream: 'reference' });

  it.each(BULK_DATASETS)('%s downloads whole as gzipped NDJSON, one record a line', async (dataset) => {
    const got = await download(url(`/api/v1/bulk/${dataset}`), headers());
    expect(got.status).toBe(200);
    expect(got.headers).toMatchObject({ 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', etag: expect.stringMatching(/^W\/"/) });
    // Compressed as it is written: its length is not known beforehand.
    expect(got.headers['content-length']).toBeUndefined();
    expect(got.lines.length).toBe(await countOf(dataset));
    expect(new Set(got.lines.map((line) => JSON.stringify((line as { id?: string; code?: string }).id ?? (line as { code: string }).code))).size).toBe(got.lines.length);
    // The gzip stream's listeners on the answer are no leak, and no warning (a stack trace outside the JSON log) says so.
    expect(system.logs('gateway')).not.toMatch(/MaxListenersExceededWarning/);
  });

  it.each(FHIR_SEARCHES)('%s downloads as FHIR NDJSON: valid resources, the same as the search answers', async (dataset, search, resourceType) => {
    const got = await download(url(`/api/v1/bulk/${dataset}?_format=fhir`), headers());
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/fhir+ndjson');
    expect(got.lines.length).toBe(await countOf(dataset));
    const byId = new Map(got.lines.map((line) => [(line as { id: string }).id, line]));
    // Asked before the schema checks: they hold the event loop for seconds, past the gateway's keep-alive, and a
    // pooled socket the server closed meanwhile would be taken for the next request before its close is read.
    const page = await api(system.gatewayUrl, `${search}${search.includes('?') ? '&' : '?'}_format=fhir`, { key: system.keys.reader });
    for (const line of got.lines) {
      expect(line).toMatchObject({ resourceType });
      expect(fhirProblems(line as { resourceType: string })).toEqual([]);
    }
    expect(page.body.entry.length).toBeGreaterThan(0);
    for (const entry of page.body.entry) expect(byId.get(entry.resource.id)).toEqual(entry.resource);
  });

  it('answers a client that refuses gzip without it, under another ETag', async () => {
    const plain = await download(url('/api/v1/bulk/labs'), headers({ 'accept-encoding': 'identity' }));
    const gzipped = await download(url('/api/v1/bulk/labs'), headers());
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.lines).toEqual(gzipped.lines);
    expect(plain.headers.etag).not.toBe(gzipped.headers.etag);
  });

  it.each([
    ['/api/v1/bulk/diseases?_format=fhir', '_format'],
    ['/api/v1/bulk/categories?_format=fhir', '_format'],
    ['/api/v1/bulk/drugs?_format=xml', '_format'],
    ['/api/v1/bulk/food_interactions', 'dataset'],
    ['/api/v1/bulk/dosage', 'dataset'],
    ['/api/v1/bulk/%00drugs', 'dataset'],
    ['/api/v1/bulk/<5000 letters>', 'dataset'],
    ['/api/v1/bulk/drugs?_format=fhir&_format=json', '_format'],
  ])('%s is refused with a problem naming %s', async (path, field) => {
    const answer = await api(system.gatewayUrl, path.replace('<5000 letters>', 'd'.repeat(5000)), { key: system.keys.reader });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(JSON.stringify(answer.body)).toContain(field);
  });

  it('needs a key', async () => {
    expect((await download(url('/api/v1/bulk/drugs'), {})).status).toBe(401);
  });

  it('the SDK downloads a dataset, decoded, line by line', async () => {
    const client = createApiClient({ baseUrl: system.gatewayUrl, apiKey: system.keys.reader });
    const { response } = await client.GET('/api/v1/bulk/{dataset}', { params: { path: { dataset: 'premises' }, query: { _format: 'fhir' } }, parseAs: 'stream' });
    expect(response.headers.get('content-type')).toBe('application/fhir+ndjson');
    const lines = (await response.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line));
    expect(lines).toHaveLength(await countOf('premises'));
    const refused = await client.GET('/api/v1/bulk/{dataset}', { params: { path: { dataset: 'diseases' }, query: { _format: 'fhir' } } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'ApiProblemError', status: 400 });
  });

  it("dosages and food interactions download, with fetch, as each drug's own endpoints list them, drug by drug", async () => {
    const expected = await linesFromEachDrug(system.gatewayUrl, system.keys.reader);
    const got = async (dataset: BulkDataset, format = 'json') => {
      const { response, lines } = await fetchLines(url(`/api/v1/bulk/${dataset}?_format=${format}`), headers());
      expect(response.status).toBe(200);
      return lines;
    };
    const dosages = await got('dosages');
    expect(Object.keys(dosages[0] as object)).toEqual(['id', 'drugId', 'drugName', 'form', 'physicalForm', 'adminMethod', 'strength']);
    expect(dosages).toEqual(expected.dosages);
    const interactions = await got('food-interactions');
    expect(Object.keys(interactions[0] as object)).toEqual(['id', 'drug', 'food', 'severity', 'effect', 'advice']);
    expect(interactions).toEqual(expected.interactions);
    const resources = await got('food-interactions', 'fhir');
    expect(resources).toEqual(expected.interactionResources);
    // After the requests (see above: the schema checks hold the event loop).
    for (const resource of resources) {
      expect(resource).toMatchObject({ resourceType: 'MedicinalProductInteraction' });
      expect(fhirProblems(resource as { resourceType: string })).toEqual([]);
    }
    expect({ drugs: expected.drugs, dosages: dosages.length, interactions: interactions.length }).toEqual({
      drugs: await countOf('drugs'),
      dosages: await countOf('dosages'),
      interactions: await countOf('food-interactions'),
    });
  });

  it.each([
    ['dosages', "UPDATE dosages SET strength = strength WHERE id = (SELECT min(id) FROM dosages)"],
    ['food-interactions', "UPDATE food_interactions SET advice = advice WHERE id = (SELECT min(id) FROM food_interactions)"],
  ] as const)('%s: 304 while unchanged, a new ETag after a write to it or to the drugs', async (dataset, write) => {
    const etagAfter = async (sql: string) => {
      await withPgClient(system.databaseUrl('reference'), (client) => client.query(sql));
      const after = await download(url(`/api/v1/bulk/${dataset}`), headers());
      expect(after.status).toBe(200);
      expect(after.lines.length).toBe(await countOf(dataset));
      return String(after.headers.etag);
    };
    const first = String((await download(url(`/api/v1/bulk/${dataset}`), headers())).headers.etag);
    expect((await download(url(`/api/v1/bulk/${dataset}`), headers({ 'if-none-match': first }))).status).toBe(304);
    const untouched = await etagAfter('UPDATE premises SET name = name WHERE id = (SELECT min(id) FROM premises)');
    expect(untouched).toBe(first);
    const written = await etagAfter(write);
    expect(written).not.toBe(first);
    expect((await download(url(`/api/v1/bulk/${dataset}`), headers({ 'if-none-match': written }))).status).toBe(304);
    expect(await etagAfter('UPDATE drugs SET name = name WHERE id = (SELECT min(id) FROM drugs)')).not.toBe(written);
  });

  it('answers 304 while the dataset is unchanged, and a new ETag after a write', async () => {
    const first = await download(url('/api/v1/bulk/diseases'), headers());
    const etag = String(first.headers.etag);
    expect((await download(url('/api/v1/bulk/diseases'), headers({ 'if-none-match': etag }))).status).toBe(304);
    // Another dataset's write leaves it as it is.
    await withPgClient(system.databaseUrl('reference'), (client) => client.query("UPDATE lab_tests SET description = description || ' ' WHERE id = (SELECT min(id) FROM lab_tests)"));
    expect((await download(url('/api/v1/bulk/diseases'), headers({ 'if-none-match': etag }))).status).toBe(304);
    await withPgClient(system.databaseUrl('reference'), (client) =>
      client.query(
        `INSERT INTO diseases (disease_id, name, definition)
         SELECT 'MESH:BULK' || i, 'Bulk disease ' || i, (SELECT string_agg(md5(i::text || '-' || g), ' ') FROM generate_series(1, 30) AS g)
           FROM generate_series(1, $1::int) AS i`,
        [LARGE_DISEASES],
      ),
    );
    const after = await download(url('/api/v1/bulk/diseases'), headers({ 'if-none-match': etag }));
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.lines.length).toBe(first.lines.length + LARGE_DISEASES);
  });

  it('a reader that stops reading stops the reads: the gateway never holds the set', async () => {
    const pages = Math.ceil((await countOf('diseases')) / 250);
    const before = await referenceCalls();
    const gateway = system.pid('gateway') as number;
    const peakBefore = peakRssMb(gateway);
    const res = await openDownload(url('/api/v1/bulk/diseases'), headers());
    res.pause();
    // Once the socket's buffers are full the reads stop (without back-pressure they would go on to the last page):
    // wait until the count holds still for 2 s, however slow the machine.
    let calls = 0;
    let previous: number;
    do {
      previous = calls;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      calls = (await referenceCalls()) - before;
    } while (calls === 0 || calls !== previous);
    expect(calls).toBeLessThan(pages / 2);
    // The set is over 30 MB of JSON text, more as objects; a few pages are a few MB.
    expect(peakRssMb(gateway) - peakBefore).toBeLessThan(25);
    // Leaving mid-stream: the reads stop, and the services go on answering.
    res.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const afterLeaving = await referenceCalls();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await referenceCalls()).toBe(afterLeaving);
    await waitFor('the gateway ready after the abort', async () => (await api(system.gatewayUrl, '/readyz', { key: system.keys.admin })).status === 200 || undefined);
    const again = await download(url('/api/v1/bulk/labs'), headers());
    expect(again.lines.length).toBe(await countOf('labs'));
  });
});
