import fc from 'fast-check';
import { startSystem, type RunningSystem } from '@libs/testing';
import { financeCounts } from './finance-db';
import { fixtures } from './finance-fixtures';
import { api, type ApiResponse, validTransaction } from './http';

/** Text with characters that trip storage or parsing: NUL, lone surrogates, control and bidi characters. */
const oddText = fc
  .tuple(fc.string({ maxLength: 10 }), fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\r\n', '\u0007'), fc.string({ maxLength: 10 }))
  .map((parts) => parts.join(''));

/** Values that are wrong for some field: wrong types, junk, edge dates, unknown and malformed ids, huge strings. */
const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  oddText,
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    '2026-02-30',
    '0000-01-01',
    '1899-12-31',
    '3000-01-01',
    '-2026-01-01',
    '2026-1-1',
    '2026-09-01T00:00:00Z',
    '00000000-0000-4000-8000-0000000000ff',
    '00000000-0000-4000-8000-00000000C001',
    'not-a-uuid',
    'x\u0000y',
    'x'.repeat(5_000),
    1e300,
    -0,
    2 ** 53,
    -(10 ** 15) - 1,
    [],
    {},
    null,
  ),
);

const FIELDS = ['studentId', 'date', 'categoryId', 'payee', 'amount', 'notes', 'accountId'] as const;

/** A valid transaction with some fields replaced by junk, some removed, and sometimes an unknown field added. */
const nearlyValid = fc
  .record({
    // Mostly one field wrong at a time, so each field's own check is what refuses the body.
    replaced: fc.oneof(
      { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), junk, { minKeys: 1, maxKeys: 1 }) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), junk, { maxKeys: 3 }) },
    ),
    removed: fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, fc.subarray([...FIELDS], { maxLength: 2 })),
    extra: fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), junk, { maxKeys: 2 }), { nil: undefined, freq: 4 }),
  })
  .map(({ replaced, removed, extra }) => {
    const body: Record<string, unknown> = { ...validTransaction(), ...extra, ...replaced };
    for (const field of removed) delete body[field];
    return body;
  });

const anyBody = fc.oneof({ weight: 3, arbitrary: nearlyValid }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) });

/** A partial update: a few fields from a valid transaction and junk, sometimes unknown ones. */
const anyPatch = fc.oneof(
  { weight: 3, arbitrary: nearlyValid.chain((body) => fc.subarray(Object.keys(body)).map((keys) => Object.fromEntries(keys.map((k) => [k, body[k]])))) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

describe('bad input: generated bodies never cause a 5xx or a stray row', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  it('refuses text PostgreSQL cannot store (NUL) with a 400 naming the field', async () => {
    const response = await api(system.gatewayUrl, '/api/v1/transactions', {
      method: 'POST',
      key: system.keys.admin,
      body: validTransaction({ notes: 'before\u0000after' }),
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'notes', message: expect.stringMatching(/NUL/) }]);
  });

  it('create, bulk-create and PATCH answer every generated body with 2xx or a 4xx problem, and write only what they report', async () => {
    const target = await fixtures(system).transaction();
    const before = await financeCounts(system);
    let createdRows = 0;
    let events = 0;
    const send = async (path: string, method: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> => {
      const response = await api(system.gatewayUrl, path, { method, key: system.keys.admin, body, headers });
      if (response.status >= 500) throw new Error(`${method} ${path} → ${response.status} for ${JSON.stringify(body).slice(0, 500)}`);
      if (response.status >= 400) expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      if (response.status < 300) events += 1;
      return response;
    };

    await fc.assert(
      fc.asyncProperty(anyBody, async (body) => {
        if ((await send('/api/v1/transactions', 'POST', body)).status === 201) createdRows += 1;
      }),
      { numRuns: 1500 },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(anyBody, { maxLength: 6 }), anyBody), async (body) => {
        const response = await send('/api/v1/transactions/bulk-create', 'POST', body);
        if (response.status === 201) createdRows += response.body.ids.length;
      }),
      { numRuns: 700 },
    );
    await fc.assert(
      fc.asyncProperty(anyPatch, async (body) => {
        await send(`/api/v1/transactions/${target.id}`, 'PATCH', body, { 'if-match': '*' });
      }),
      { numRuns: 1000 },
    );

    const after = await financeCounts(system);
    expect(after).toEqual({ ...before, transactions: before.transactions + createdRows, outbox: before.outbox + events });
    // The generators do produce valid requests too, so the property covers the accepting path.
    expect(events).toBeGreaterThan(0);
  }, 300_000);
});
