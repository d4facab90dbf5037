import fc from 'fast-check';
import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';

// Walks make many requests and the run shares the machine: the root Jest run's 5 s default is too tight
// (testTimeout in apps/e2e/jest.config.cjs applies only when this project runs alone).
jest.setTimeout(60_000);

/** Every reference endpoint with the parameters it knows; {id} is a path parameter. */
const ENDPOINTS: { path: string; params: string[] }[] = [
  { path: '/api/v1/diseases', params: ['n', 'e', 'r', 's', 'sOrder', 'b', 'cursor', '_format'] },
  { path: '/api/v1/labs', params: ['n', 'r', 'cursor', '_format'] },
  { path: '/dosages', params: ['n', 'b', 'cursor', '_format'] },
  { path: '/api/v1/dosages', params: ['n', 'b', 'cursor'] },
  { path: '/dosages/{id}', params: ['_format'] },
  { path: '/api/v1/dosages/{id}', params: [] },
  { path: '/api/v1/drugs', params: ['cursor', 'BATCH_COUNT', 'b', '_format'] },
  { path: '/api/v1/drugs/{id}', params: ['_format'] },
  { path: '/api/v1/drugs/{id}/food-interactions', params: ['_format'] },
  { path: '/api/v1/categories', params: ['c', 'r', 'cursor', '_format'] },
  { path: '/api/v1/conditions', params: ['q', 'r', 'cursor', '_format'] },
  { path: '/api/v1/premises', params: ['n', 'r', 'cursor', '_format'] },
];

const RUNS_PER_ENDPOINT = 250;

const SQL = ["'", "''", '"', ';', '--', '/*', '*/', "' OR '1'='1", "'; DROP TABLE drugs; --", '%', '_', '\\', '\\%', '$1', '::text', 'E\'\\x00\''];

/** Hostile values: SQL metacharacters, unicode, NUL and other controls, 10 KB, empty, numbers out of range. */
function hostileValue(realCursors: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...SQL),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 50 }),
    fc.constantFrom('', ' ', ',', ',,,', '\u0000', 'a\u0000b', '\u202e', '\ud800', '\uffff', '😀'.repeat(100)),
    // 10 KB, kept under the HTTP server's 16 KB header limit once percent-encoded.
    fc.constantFrom('x'.repeat(10_240), 'a,'.repeat(2_000)),
    fc.constantFrom('-1', '0', '251', '501', '1e3', '1.5', 'NaN', 'Infinity', '99999999999999999999', '0x10', 'true', 'TRUE', 'yes'),
    fc.integer().map(String),
    fc.base64String({ maxLength: 300 }),
    fc.tuple(fc.base64String(), fc.base64String()).map(([a, b]) => `${a}.${b}`),
    fc.constantFrom(...realCursors),
    fc.tuple(fc.constantFrom(...realCursors), fc.nat(), fc.string({ minLength: 1, maxLength: 1 })).map(([c, i, ch]) => {
      const at = i % c.length;
      return `${c.slice(0, at)}${ch}${c.slice(at + 1)}`;
    }),
  );
}

/** Percent-encoding; a lone surrogate cannot travel in a URL, so it goes as U+FFFD. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

/** A query string; mostly encoded, sometimes raw (bad percent escapes included), sometimes with repeated names. */
function hostileQuery(params: string[], realCursors: string[]): fc.Arbitrary<string> {
  const name = fc.oneof(fc.constantFrom(...params, 'unknown', 'N', 'cursor[]'), fc.string({ maxLength: 10 }));
  const pair = fc.tuple(name, hostileValue(realCursors), fc.boolean()).map(([n, v, raw]) =>
    raw ? `${n.replace(/[#&\s]/g, '')}=${v.replace(/[#&\s]/g, '').slice(0, 2_000)}` : `${encode(n)}=${encode(v)}`,
  );
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&'));
}

describe('reference endpoints under hostile input', () => {
  let system: RunningSystem;
  const realCursors: string[] = [];
  beforeAll(async () => {
    system = await startSystem();
    // Genuine cursors, to replay on other endpoints and to damage a character at a time.
    for (const path of ['/api/v1/diseases', '/api/v1/labs', '/dosages?n=a&b=1', '/api/v1/drugs', '/api/v1/categories', '/api/v1/conditions', '/api/v1/premises']) {
      const { body } = await api(system.gatewayUrl, path, { key: system.keys.reader });
      if (typeof body?.nextCursor === 'string') realCursors.push(body.nextCursor);
    }
  }, 90_000);
  afterAll(() => system?.shutdown());

  it.each(ENDPOINTS)('$path answers a clean 4xx problem or a 200, never a 5xx', async ({ path, params }) => {
    expect(realCursors.length).toBeGreaterThan(5);
    const id = fc.oneof(hostileValue(realCursors), fc.nat().map(String)).map((v) => encode(v).slice(0, 4_000));
    await fc.assert(
      fc.asyncProperty(id, hostileQuery(params, realCursors), async (pathId, query) => {
        const url = `${path.replace('{id}', pathId || '%20')}${query ? `?${query}` : ''}`;
        const response = await api(system.gatewayUrl, url, { key: system.keys.reader });
        if (response.status >= 500) throw new Error(`${response.status} for ${url.slice(0, 300)}: ${JSON.stringify(response.body)}`);
        if (response.status === 431) {
          // Node's HTTP parser refuses request heads over 16 KB before the gateway sees them.
          expect(url.length).toBeGreaterThan(12_000);
        } else if (response.status >= 400) {
          expect(`${response.status} ${response.headers.get('content-type')}`).toMatch(/^4\d\d application\/problem\+json/);
          expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          expect(response.body).toMatchObject({ status: response.status, title: expect.any(String), detail: expect.any(String) });
        } else {
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toMatch(/^application\/(fhir\+)?json/);
        }
      }),
      { numRuns: RUNS_PER_ENDPOINT },
    );
  }, 300_000);

  it('still serves ordinary requests afterwards', async () => {
    const { status } = await api(system.gatewayUrl, '/api/v1/labs?n=potassium', { key: system.keys.reader });
    expect(status).toBe(200);
    expect(system.logs('reference')).not.toMatch(/handler failed/);
  });
});
