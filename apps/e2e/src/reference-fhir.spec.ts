import Client from 'fhir-kit-client';
import { startSystem, type RunningSystem } from '@libs/testing';
import { fhirProblems } from './fhir';
import { api } from './http';

type Bundle = { resourceType: string; link: { relation: string; url: string }[]; entry?: { resource: { id: string } }[] };

// Walks make many requests and the run shares the machine: the root Jest run's 5 s default is too tight
// (testTimeout in apps/e2e/jest.config.cjs applies only when this project runs alone).
jest.setTimeout(60_000);

describe('FHIR R4 output and caching of reference responses', () => {
  let system: RunningSystem;
  let ids: { dosage: string; drug: string };
  beforeAll(async () => {
    system = await startSystem();
    const dosages = await get('/dosages?n=warfarin');
    const category = await get('/api/v1/categories?c=B01AA03&r=true');
    ids = { dosage: dosages.body.dosages[0].dosages[0].id, drug: category.body.categories[0].drugs[0].id };
  }, 90_000);
  afterAll(() => system?.shutdown());

  const get = (path: string, headers: Record<string, string> = {}) =>
    api(system.gatewayUrl, path, { key: system.keys.reader, headers });
  const fhir = (path: string) => get(path, { accept: 'application/fhir+json' });
  // A FHIR client whose base is the API's root, as a FHIR application would be configured.
  const fhirClient = () =>
    new Client({ baseUrl: `${system.gatewayUrl}/api/v1`, customHeaders: { Authorization: `Bearer ${system.keys.reader}` } });

  it.each([
    ['/api/v1/diseases?n=asthma', 'ValueSet'],
    ['/api/v1/labs?n=potassium,haemoglobin', 'ObservationDefinition'],
    ['/dosages?n=paracetamol', 'MedicationKnowledge'],
    ['/api/v1/drugs', 'MedicationKnowledge'],
    ['/api/v1/categories?c=A10', 'ValueSet'],
    ['/api/v1/conditions?q=diabetes', 'ValueSet'],
    ['/api/v1/premises', 'Location'],
  ])('%s is a valid searchset Bundle of %s', async (path, resourceType) => {
    const { status, headers, body } = await fhir(path);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(body.entry.length).toBeGreaterThan(0);
    for (const entry of body.entry) expect(entry.resource.resourceType).toBe(resourceType);
    expect(fhirProblems(body)).toEqual([]);
  });

  it('serves single resources and food interactions as valid FHIR too', async () => {
    const dosage = await fhir(`/dosages/${ids.dosage}`);
    expect(dosage.body).toMatchObject({ resourceType: 'MedicationKnowledge', doseForm: { text: expect.any(String) } });
    expect(dosage.body.intendedRoute).toEqual([{ text: 'oral' }]);
    expect(dosage.body.amount).toEqual({ value: expect.any(Number), unit: 'mg' });
    const drug = await fhir(`/api/v1/drugs/${ids.drug}`);
    expect(drug.body.code.coding).toEqual(
      expect.arrayContaining([{ system: 'http://www.whocc.no/atc', code: 'B01AA03', display: expect.any(String) }]),
    );
    const food = await fhir(`/api/v1/drugs/${ids.drug}/food-interactions`);
    expect(food.body.entry[0].resource.resourceType).toBe('MedicinalProductInteraction');
    for (const body of [dosage.body, drug.body, food.body]) expect(fhirProblems(body)).toEqual([]);
  });

  it('maps disease codes and synonyms into the ValueSet expansion', async () => {
    const { body } = await get('/api/v1/diseases?n=asthma&e=true&_format=fhir');
    expect(body.entry[0].resource.expansion.contains[0]).toEqual({
      system: 'http://id.nlm.nih.gov/mesh',
      code: 'D001249',
      display: 'Asthma',
      designation: expect.arrayContaining([{ value: 'Bronchial Asthma' }]),
    });
  });

  it('maps a lab test with its LOINC code and reference interval', async () => {
    const { body } = await get('/api/v1/labs?n=potassium&_format=fhir');
    const potassium = body.entry
      .map((e: { resource: { code: { text: string } } }) => e.resource)
      .find((r: { code: { text: string } }) => r.code.text === 'Potassium');
    expect(potassium).toMatchObject({
      code: { coding: [{ system: 'http://loinc.org', code: expect.any(String) }] },
      qualifiedInterval: [{ category: 'reference', range: { low: { value: expect.any(Number) }, high: { value: expect.any(Number) } } }],
    });
  });

  it('carries the next cursor in an absolute Bundle link, and leaves it out on the last page', async () => {
    const first = await fhir('/api/v1/drugs');
    const links = Object.fromEntries(first.body.link.map((l: { relation: string; url: string }) => [l.relation, l.url]));
    expect(links.self).toBe(`${system.gatewayUrl}/api/v1/drugs`);
    expect(links.next).toMatch(new RegExp(`^${system.gatewayUrl}/api/v1/drugs\\?cursor=`));
    const last = await fhir('/api/v1/premises?n=pharmacy');
    expect(last.body.link.map((l: { relation: string }) => l.relation)).toEqual(['self']);
  });

  it('pages a Bundle with fhir-kit-client from the base /api/v1 until no next link is left', async () => {
    const client = fhirClient();
    let bundle = (await client.request('drugs')) as unknown as Bundle;
    const seen = new Set<string>();
    let pages = 0;
    while (bundle) {
      pages += 1;
      expect(bundle.resourceType).toBe('Bundle');
      expect(fhirProblems(bundle)).toEqual([]);
      for (const entry of bundle.entry ?? []) seen.add(entry.resource.id);
      bundle = (await client.nextPage({ bundle: bundle as never })) as unknown as Bundle;
    }
    const json = await get('/api/v1/drugs');
    expect(pages).toBeGreaterThan(1);
    expect(seen.size).toBeGreaterThan(json.body.drugs.length);
  });

  it('answers a FHIR client\'s errors as OperationOutcome', async () => {
    const notFound = await fhir('/api/v1/drugs/999999999');
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(notFound.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] });
    const badParameter = await get('/api/v1/diseases?n=asthma&b=0&_format=fhir');
    expect(badParameter.status).toBe(400);
    expect(badParameter.body.issue).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'invalid', expression: ['b'] })]),
    );
    const noKey = await api(system.gatewayUrl, '/api/v1/drugs?_format=fhir');
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(noKey.body.issue[0].code).toBe('login');
    for (const outcome of [notFound.body, badParameter.body, noKey.body]) expect(fhirProblems(outcome)).toEqual([]);
    // fhir-kit-client hands the OperationOutcome to the caller as the error's body.
    const failure = await fhirClient().request('drugs/999999999').catch((error: { response: { status: number; data: unknown } }) => error);
    expect(failure).toMatchObject({ response: { status: 404, data: { resourceType: 'OperationOutcome' } } });
    // Without FHIR asked for, errors stay problem+json.
    expect((await get('/api/v1/drugs/999999999')).headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('serves a valid CapabilityStatement at the base\'s metadata, listing what the operations serve', async () => {
    const statement = (await fhirClient().capabilityStatement()) as unknown as {
      rest: { resource: { type: string; interaction: { code: string }[]; searchParam?: { name: string; type: string }[] }[] }[];
      implementation: { url: string };
      fhirVersion: string;
    };
    // R4's current version is 4.0.1; the validator's schema dates from 4.0.0 and lists no later version.
    expect(statement.fhirVersion).toBe('4.0.1');
    expect(fhirProblems({ ...statement, fhirVersion: '4.0.0' } as never)).toEqual([]);
    expect(statement.implementation.url).toBe(`${system.gatewayUrl}/api/v1`);
    const resources = Object.fromEntries(statement.rest[0].resource.map((r) => [r.type, r]));
    expect(Object.keys(resources).sort()).toEqual(
      ['Appointment', 'CodeSystem', 'Location', 'MedicationKnowledge', 'MedicinalProductInteraction', 'ObservationDefinition', 'Schedule', 'Slot', 'ValueSet'],
    );
    expect(resources.Schedule.interaction.map((i) => i.code).sort()).toEqual(['read', 'search-type']);
    expect(resources.MedicationKnowledge.interaction.map((i) => i.code).sort()).toEqual(['read', 'search-type']);
    expect(resources.Appointment.interaction.map((i) => i.code).sort()).toEqual(['read', 'search-type']);
    expect(resources.Appointment.searchParam).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'status', type: 'token' })]));
    expect(resources.ObservationDefinition.searchParam).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'n', type: 'string' }), expect.objectContaining({ name: 'r', type: 'token' })]),
    );
    // Public, as FHIR clients read it before they have credentials.
    const anonymous = await api(system.gatewayUrl, '/api/v1/metadata');
    expect(anonymous.status).toBe(200);
  });

  it('refuses an unknown _format naming it', async () => {
    const response = await get('/api/v1/labs?_format=xml');
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: '_format', message: expect.any(String) }]);
  });

  it.each(['/api/v1/diseases?n=asthma', '/api/v1/labs?n=potassium', '/dosages?n=paracetamol', '/api/v1/drugs', '/api/v1/categories', '/api/v1/conditions', '/api/v1/premises'])(
    '%s carries ETag and Cache-Control, and answers 304 to If-None-Match',
    async (path) => {
      const first = await get(path);
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/);
      // Revalidate as a browser's reload does (max-age=0); with fetch's no-cache, see real-clients.spec.ts.
      const revalidate = { 'if-none-match': etag ?? '', 'cache-control': 'max-age=0' };
      const again = await get(path, revalidate);
      expect(again.status).toBe(304);
      expect(again.body).toBeUndefined();
      const otherFormat = await get(path, { ...revalidate, accept: 'application/fhir+json' });
      expect(otherFormat.status).toBe(200);
    },
  );

  it('still asks for the key before a 304', async () => {
    const first = await get('/api/v1/drugs');
    const headers = { 'if-none-match': first.headers.get('etag') ?? '', 'cache-control': 'max-age=0' };
    const anonymous = await api(system.gatewayUrl, '/api/v1/drugs', { headers });
    expect(anonymous.status).toBe(401);
  });
});
