import { ApiProblemError, createApiClient, createFhirClient, downloadDocument, fileUpload, newIdempotencyKey, ok, pages } from '@libs/sdk';
import { startSystem, type RunningSystem } from '@libs/testing';
import { pdfText } from './documents/pdf-text';
import { DEMO_STUDENT_ID } from './finance-fixtures';
import { pdf } from './files/sample-files';
import { validTransaction } from './http';

jest.setTimeout(60_000);

/** The generated SDK (libs/sdk) against the real system: what a TypeScript client writes, compiled and run. */
describe('the typed SDK against the running system', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const client = (apiKey: string) => createApiClient({ baseUrl: system.gatewayUrl, apiKey });

  it('reads a page as typed JSON, with no type guard for the FHIR variant', async () => {
    const page = await ok(client(system.keys.reader).GET('/api/v1/labs', { params: { query: { n: 'potassium' } } }));
    // These lines compile only because `data` is the JSON answer alone (npm run typecheck covers this file).
    const names: string[] = page.tests.map((test) => test.name);
    const next: string | undefined = page.nextCursor;
    expect(names).toContain('Potassium');
    expect(next).toBeUndefined();
  });

  it('follows nextCursor through every page of a list', async () => {
    const reader = client(system.keys.reader);
    const ids: string[] = [];
    let count = 0;
    for await (const page of pages((cursor) => reader.GET('/api/v1/drugs', { params: { query: { cursor } } }))) {
      count += 1;
      ids.push(...page.drugs.map((drug) => drug.id));
    }
    expect(count).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('searches drugs and resolves a code to the concept it names', async () => {
    const reader = client(system.keys.reader);
    const found = await ok(reader.GET('/api/v1/drugs', { params: { query: { n: 'ibuprofn' } } }));
    expect(found.drugs[0].name).toBe('Ibuprofen');
    const lookup = await ok(reader.GET('/api/v1/codes', { params: { query: { system: 'mesh', code: 'D003920' } } }));
    const concepts: { type: string; name: string }[] = lookup.concepts;
    expect(lookup.code).toBe('MESH:D003920');
    expect(concepts).toEqual([{ type: 'disease', id: expect.any(String), name: 'Diabetes Mellitus' }]);
  });

  it('runs the FHIR terminology operations with the FHIR-typed client', async () => {
    const fhir = createFhirClient({ baseUrl: system.gatewayUrl, apiKey: system.keys.reader });
    const mesh = 'http://id.nlm.nih.gov/mesh';
    const codeSystem = await ok(fhir.GET('/api/v1/CodeSystem/{id}', { params: { path: { id: 'mesh' } } }));
    expect(codeSystem).toMatchObject({ resourceType: 'CodeSystem', url: mesh });
    const lookup = await ok(fhir.GET('/api/v1/CodeSystem/$lookup', { params: { query: { system: mesh, code: 'MESH:D003920' } } }));
    expect(lookup.parameter).toEqual(expect.arrayContaining([{ name: 'display', valueString: 'Diabetes Mellitus' }]));
    const url = 'urn:clinical-finance:value-set:diseases';
    const expansion = await ok(fhir.GET('/api/v1/ValueSet/$expand', { params: { query: { url, filter: 'asth', count: 2 } } }));
    expect(expansion).toMatchObject({ resourceType: 'ValueSet', expansion: { offset: 0, total: expect.any(Number) } });
    const valid = await ok(fhir.GET('/api/v1/ValueSet/$validate-code', { params: { query: { url, system: mesh, code: 'D003920' } } }));
    expect(valid.parameter).toEqual(expect.arrayContaining([{ name: 'result', valueBoolean: true }]));
    const checked = await ok(fhir.GET('/api/v1/CodeSystem/$validate-code', { params: { query: { url: mesh, code: 'D003920' } } }));
    expect(checked.parameter).toEqual(expect.arrayContaining([{ name: 'result', valueBoolean: true }]));
    const lists = await Promise.all([ok(fhir.GET('/api/v1/CodeSystem', {})), ok(fhir.GET('/api/v1/ValueSet', {}))]);
    expect(lists.map((bundle) => bundle.entry.length)).toEqual([8, 5]);
    expect(await ok(fhir.GET('/api/v1/ValueSet/{id}', { params: { path: { id: 'labs' } } }))).toMatchObject({ id: 'labs' });
    // A code that names nothing rejects, as every error does.
    const missing = await fhir.GET('/api/v1/CodeSystem/$lookup', { params: { query: { system: mesh, code: 'D999999' } } }).catch((error: unknown) => error);
    expect(missing).toMatchObject({ name: 'ApiProblemError', status: 404 });
  });

  it('uploads a file, names it in a payment, and downloads it', async () => {
    const student = client(system.keys.student);
    const bytes = pdf(200_000);
    const file = await ok(student.POST('/api/v1/files', fileUpload('payment_proof', new Blob([bytes]), 'transfer.pdf')));
    expect(file).toMatchObject({ name: 'transfer.pdf', type: 'application/pdf', size: bytes.length });
    const body = { amount: 4_200, date: '2026-10-06', fileIds: [file.id] };
    const payment = await ok(student.POST('/api/v1/transactions/payments', { body, params: { header: { 'Idempotency-Key': newIdempotencyKey() } } }));
    const ids: string[] = payment.files.map((attached) => attached.id);
    expect(ids).toEqual([file.id]);
    const read = client(system.keys.bursar).GET('/api/v1/transactions/payments/{id}/files/{fileId}', {
      params: { path: { id: payment.id, fileId: file.id } },
      parseAs: 'arrayBuffer',
    });
    const downloaded = await downloadDocument(read);
    expect(Buffer.from(downloaded.bytes).equals(bytes)).toBe(true);
    expect(downloaded).toMatchObject({ contentType: 'application/pdf', fileName: 'transfer.pdf' });
    const refused = await student.POST('/api/v1/files', fileUpload('payment_proof', new Blob(['not a pdf']), 'x.pdf')).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'ApiProblemError', status: 415 });
  });

  it('throws problem+json errors as ApiProblemError, with the fields and the request id', async () => {
    const reader = client(system.keys.reader);
    const bad = await reader.GET('/api/v1/diseases', { params: { query: { b: 0 } } }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(ApiProblemError);
    const problem = bad as ApiProblemError;
    expect(problem.status).toBe(400);
    expect(problem.fieldErrors).toEqual([{ field: 'b', message: expect.any(String) }]);
    expect(problem.requestId).toMatch(/\S/);
    const anonymous = await createApiClient({ baseUrl: system.gatewayUrl }).GET('/api/v1/drugs').catch((error: unknown) => error);
    expect(anonymous).toMatchObject({ name: 'ApiProblemError', status: 401 });
  });

  it('sends an Idempotency-Key so that a retried create writes once', async () => {
    const bursar = client(system.keys.bursar);
    const key = newIdempotencyKey();
    const create = () =>
      ok(bursar.POST('/api/v1/transactions', { params: { header: { 'Idempotency-Key': key } }, body: validTransaction({ payee: 'SDK' }) }));
    const first = await create();
    const retry = await create();
    expect(retry.id).toBe(first.id);
    const read = await ok(bursar.GET('/api/v1/transactions/{id}', { params: { path: { id: first.id } } }));
    expect(read.payee).toBe('SDK');
  });

  it('downloads a statement as a PDF and as CSV, and a receipt', async () => {
    const student = client(system.keys.student);
    const bursar = client(system.keys.bursar);
    const statementPath = '/api/v1/finance/students/{id}/statement' as const;
    const json = await ok(student.GET(statementPath, { params: { path: { id: DEMO_STUDENT_ID } } }));
    const pdf = await downloadDocument(
      student.GET(statementPath, { params: { path: { id: DEMO_STUDENT_ID }, query: { format: 'pdf' } }, parseAs: 'arrayBuffer' }),
    );
    expect(pdf).toMatchObject({ contentType: 'application/pdf', fileName: `${pdf.documentNumber}.pdf`, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const text = await pdfText(Buffer.from(pdf.bytes));
    const balance = `${json.balance < 0 ? '-' : ''}${(Math.abs(json.balance) / 100).toFixed(2)}`;
    expect(text.rows.find((row) => row.texts[0] === 'Balance')?.texts).toEqual(['Balance', balance]);
    const csv = await downloadDocument(student.GET(statementPath, { params: { path: { id: DEMO_STUDENT_ID }, query: { format: 'csv' } }, parseAs: 'arrayBuffer' }));
    expect(new TextDecoder().decode(csv.bytes).split('\r\n').filter(Boolean)).toHaveLength(json.lines.length + 1);

    const submitted = await ok(student.POST('/api/v1/transactions/payments', { body: { amount: 4_200, date: '2026-10-03' } }));
    await ok(bursar.PATCH('/api/v1/transactions/payments/{id}', { params: { path: { id: submitted.id } }, body: { outcome: 'accepted' } }));
    const receipt = await downloadDocument(
      student.GET('/api/v1/transactions/payments/{id}/receipt', { params: { path: { id: submitted.id } }, parseAs: 'arrayBuffer' }),
    );
    expect(receipt.fileName).toMatch(/^RC-/);
    expect((await pdfText(Buffer.from(receipt.bytes))).rows.some((row) => row.texts.includes('42.00'))).toBe(true);
  });
});
