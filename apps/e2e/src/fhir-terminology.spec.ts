import Client from 'fhir-kit-client';
import { startSystem, type RunningSystem } from '@libs/testing';
import { fhirProblems } from './fhir';
import { api } from './http';

jest.setTimeout(60_000);

const MESH = 'http://id.nlm.nih.gov/mesh';
const DISEASES = 'urn:clinical-finance:value-set:diseases';

type Parameters = { resourceType: 'Parameters'; parameter: { name: string; valueString?: string; valueBoolean?: boolean }[] };
type Expansion = {
  resourceType: 'ValueSet';
  expansion: { total: number; offset: number; parameter: { name: string }[]; contains?: { system: string; code: string; display: string }[] };
};
type FhirFailure = { response: { status: number; data: { resourceType: string; issue: { code: string; expression?: string[] }[] } } };

/** A Parameters resource's values by name (designations, repeated, left out). */
const valuesOf = (parameters: Parameters) =>
  Object.fromEntries(parameters.parameter.map((p) => [p.name, p.valueBoolean ?? p.valueString]));

/** FHIR terminology (docs/REFERENCE.md, "FHIR terminology") as a FHIR client library calls it, every answer checked against the R4 schema. */
describe('FHIR terminology: CodeSystem and ValueSet operations', () => {
  let system: RunningSystem;
  let client: Client;
  beforeAll(async () => {
    system = await startSystem();
    client = new Client({ baseUrl: `${system.gatewayUrl}/api/v1`, customHeaders: { Authorization: `Bearer ${system.keys.reader}` } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  const operation = async <T>(resourceType: 'CodeSystem' | 'ValueSet', name: string, input: Record<string, string | number>): Promise<T> => {
    const answer = (await client.operation({ resourceType, name, method: 'GET', input })) as unknown as T;
    expect(fhirProblems(answer as never)).toEqual([]);
    return answer;
  };
  const failure = (call: Promise<unknown>) => call.then(() => undefined, (error: FhirFailure) => error.response);

  it('lists CodeSystem and ValueSet with their interactions and operations in the CapabilityStatement', async () => {
    const statement = (await client.capabilityStatement()) as unknown as {
      rest: { resource: { type: string; interaction: { code: string }[]; operation?: { name: string; definition: string }[] }[] }[];
    };
    const resources = Object.fromEntries(statement.rest[0].resource.map((r) => [r.type, r]));
    expect(resources.CodeSystem.interaction.map((i) => i.code).sort()).toEqual(['read', 'search-type']);
    expect(resources.ValueSet.interaction.map((i) => i.code).sort()).toEqual(['read', 'search-type']);
    const definitions = (type: string) => (resources[type].operation ?? []).map((o) => `${o.name} ${o.definition}`).sort();
    expect(definitions('CodeSystem')).toEqual([
      'lookup http://hl7.org/fhir/OperationDefinition/CodeSystem-lookup',
      'validate-code http://hl7.org/fhir/OperationDefinition/CodeSystem-validate-code',
    ]);
    expect(definitions('ValueSet')).toEqual([
      'expand http://hl7.org/fhir/OperationDefinition/ValueSet-expand',
      'validate-code http://hl7.org/fhir/OperationDefinition/ValueSet-validate-code',
    ]);
  });

  it('serves the code systems and value sets as resources, searchable by url', async () => {
    const mesh = (await client.read({ resourceType: 'CodeSystem', id: 'mesh' })) as unknown as { url: string; content: string };
    expect(mesh).toMatchObject({ resourceType: 'CodeSystem', url: MESH, content: 'not-present' });
    const found = (await client.search({ resourceType: 'ValueSet', searchParams: { url: DISEASES } })) as unknown as {
      entry: { resource: { id: string; url: string } }[];
    };
    expect(found.entry.map((e) => e.resource)).toEqual([expect.objectContaining({ id: 'diseases', url: DISEASES })]);
    const all = await client.search({ resourceType: 'CodeSystem', searchParams: {} });
    for (const answer of [mesh, found, all]) expect(fhirProblems(answer as never)).toEqual([]);
    expect(await failure(client.read({ resourceType: 'CodeSystem', id: 'snomed' }))).toMatchObject({ status: 404 });
  });

  it('resolves MESH:D003920 with $lookup, with or without its prefix', async () => {
    for (const code of ['MESH:D003920', 'D003920']) {
      const answer = await operation<Parameters>('CodeSystem', '$lookup', { system: MESH, code });
      expect(valuesOf(answer)).toEqual({ name: 'Mesh', display: 'Diabetes Mellitus' });
    }
    const unknownCode = await failure(operation('CodeSystem', '$lookup', { system: MESH, code: 'D999999' }));
    expect(unknownCode).toMatchObject({ status: 404, data: { resourceType: 'OperationOutcome', issue: [{ code: 'not-found' }] } });
    const unknownSystem = await failure(operation('CodeSystem', '$lookup', { system: 'http://snomed.info/sct', code: '73211009' }));
    expect(unknownSystem).toMatchObject({ status: 400, data: { resourceType: 'OperationOutcome' } });
    expect(unknownSystem?.data.issue).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'invalid', expression: ['system'] })]));
    for (const outcome of [unknownCode?.data, unknownSystem?.data]) expect(fhirProblems(outcome as never)).toEqual([]);
  });

  it('pages a filtered $expand to its end: every match once, in a stable order, as many as the total', async () => {
    const page = (offset: number) => operation<Expansion>('ValueSet', '$expand', { url: DISEASES, filter: 'diab', count: 4, offset });
    const first = await page(0);
    const { total } = first.expansion;
    expect(total).toBeGreaterThan(8);
    expect(first.expansion.parameter.map((p) => p.name)).toEqual(['filter', 'offset', 'count']);
    const seen: string[] = [];
    for (let offset = 0; offset < total; offset += 4) {
      const { expansion } = offset === 0 ? first : await page(offset);
      expect(expansion).toMatchObject({ total, offset });
      seen.push(...(expansion.contains ?? []).map((c) => `${c.system}|${c.code}|${c.display}`));
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toContain(`${MESH}|D003920|Diabetes Mellitus`);
    const names = seen.map((s) => s.split('|')[2].toLowerCase());
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    // Past the end: the same total, no concepts; the order repeats on a second walk's first page.
    expect((await page(total)).expansion).toMatchObject({ total, offset: total });
    expect((await page(0)).expansion.contains).toEqual(first.expansion.contains);
  });

  it('matches a later word of a name or a synonym, and refuses paging past its bound', async () => {
    const mellitus = await operation<Expansion>('ValueSet', '$expand', { url: DISEASES, filter: 'MELLI', count: 100 });
    expect(mellitus.expansion.contains?.map((c) => c.display)).toEqual(expect.arrayContaining(['Diabetes Mellitus', 'Diabetes Mellitus, Type 2']));
    const tooDeep = await failure(operation('ValueSet', '$expand', { url: DISEASES, offset: 10_001 }));
    expect(tooDeep?.data.issue).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'invalid', expression: ['offset'] })]));
    const tooShort = await failure(operation('ValueSet', '$expand', { url: DISEASES, filter: 'd' }));
    expect(tooShort).toMatchObject({ status: 400 });
  });

  it('validates codes against a code system and a value set, displays included', async () => {
    const valid = await operation<Parameters>('CodeSystem', '$validate-code', { url: MESH, code: 'D003920', display: 'diabetes mellitus' });
    expect(valuesOf(valid)).toEqual({ result: true, display: 'Diabetes Mellitus' });
    const wrongDisplay = await operation<Parameters>('CodeSystem', '$validate-code', { url: MESH, code: 'D003920', display: 'Asthma' });
    expect(valuesOf(wrongDisplay)).toMatchObject({ result: false, message: expect.stringContaining('Asthma') });
    const unknown = await operation<Parameters>('CodeSystem', '$validate-code', { url: MESH, code: 'D999999' });
    expect(valuesOf(unknown)).toMatchObject({ result: false });
    const inSet = await operation<Parameters>('ValueSet', '$validate-code', { url: DISEASES, system: MESH, code: 'D003920' });
    expect(valuesOf(inSet)).toMatchObject({ result: true });
    const otherSystem = await operation<Parameters>('ValueSet', '$validate-code', {
      url: 'urn:clinical-finance:value-set:labs',
      system: MESH,
      code: 'D003920',
    });
    expect(valuesOf(otherSystem)).toMatchObject({ result: false });
  });

  it('answers OperationOutcome errors without being asked for FHIR, and needs a key', async () => {
    const noKey = await api(system.gatewayUrl, `/api/v1/CodeSystem/$lookup?system=${encodeURIComponent(MESH)}&code=D003920`);
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(noKey.body.resourceType).toBe('OperationOutcome');
  });
});
