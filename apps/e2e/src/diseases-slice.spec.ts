import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';

describe('GET /api/v1/diseases through gateway, gRPC and the reference database', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const get = (path: string, key = system.keys.reader) => api(system.gatewayUrl, path, { key });

  it('finds a disease from a misspelt name, best match first, with the fields of the spec', async () => {
    const { status, body } = await get('/api/v1/diseases?n=diabtes%20melitus');
    expect(status).toBe(200);
    expect(body.diseases[0]).toEqual({
      id: expect.any(String),
      Disease_Name: 'Diabetes Mellitus',
      Disease_ID: 'MESH:D003920',
      Alternative_Disease_IDs: expect.any(String),
      Definition: expect.stringMatching(/\w/),
      Parent_IDs: expect.any(String),
      Tree_Numbers: expect.stringContaining('C19'),
      Parent_Tree_Numbers: expect.any(String),
      Synonyms: expect.any(Array),
      Slim_Mappings: expect.any(Array),
    });
  });

  it('returns names only when r=false', async () => {
    const { body } = await get('/api/v1/diseases?n=asthma&r=false&b=2');
    expect(body.diseases.length).toBeGreaterThan(0);
    for (const disease of body.diseases) expect(Object.keys(disease)).toEqual(['Disease_Name']);
  });

  it('gives the names-only and the detailed answer the same cursors: a walk may switch from one to the other', async () => {
    const names = (body: { diseases: { Disease_Name: string }[] }) => body.diseases.map((d) => d.Disease_Name);
    const [brief, detailed] = await Promise.all([get('/api/v1/diseases?n=syndrome&r=false&b=3'), get('/api/v1/diseases?n=syndrome&b=3')]);
    expect(names(brief.body)).toEqual(names(detailed.body));
    expect(brief.body.nextCursor).toBe(detailed.body.nextCursor);
    const cursor = encodeURIComponent(brief.body.nextCursor);
    const [briefNext, detailedNext] = await Promise.all([
      get(`/api/v1/diseases?n=syndrome&r=false&b=3&cursor=${cursor}`),
      get(`/api/v1/diseases?n=syndrome&r=true&b=3&cursor=${cursor}`),
    ]);
    expect(detailedNext.status).toBe(200);
    expect(detailedNext.body.diseases[0]).toHaveProperty('Disease_ID', expect.stringMatching(/^(MESH|OMIM):/));
    expect(names(briefNext.body)).toEqual(names(detailedNext.body));
  });

  it('matches exactly, ignoring case, when e=true', async () => {
    const { status, body } = await get('/api/v1/diseases?n=ASTHMA&e=true');
    expect(status).toBe(200);
    expect(body.diseases.map((d: { Disease_Name: string }) => d.Disease_Name)).toEqual(['Asthma']);
    expect(body).not.toHaveProperty('nextCursor');
  });

  it('walks every page once and leaves nextCursor out on the last page', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const { status, body } = await get(`/api/v1/diseases?s=true&b=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(status).toBe(200);
      seen.push(...body.diseases.map((d: { id: string }) => d.id));
      cursor = body.nextCursor;
      if (cursor !== undefined) expect(cursor).not.toBe('');
    } while (cursor);
    expect(seen.length).toBeGreaterThanOrEqual(300);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('refuses a cursor replayed with other filters', async () => {
    const first = await get('/api/v1/diseases?s=true&b=5');
    const replay = await get(`/api/v1/diseases?s=true&sOrder=desc&b=5&cursor=${first.body.nextCursor}`);
    expect(replay.status).toBe(400);
    expect(replay.body.errors).toEqual([{ field: 'cursor', message: expect.stringMatching(/different query/) }]);
  });

  it('answers 404 problem+json when nothing matches', async () => {
    const response = await get('/api/v1/diseases?n=qqqqzzzzxxxx&e=true');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it.each([
    ['b=0', 'b'],
    ['b=251', 'b'],
    ['e=yes', 'e'],
    ['sOrder=up', 'sOrder'],
    ['cursor=garbage', 'cursor'],
    ['n=%00', 'n'],
    [`n=${'a'.repeat(10_000)}`, 'n'],
    ['s=1', 's'],
    ['r=TRUE', 'r'],
    ['b=2.5', 'b'],
    ['b=1&b=2', 'b'],
  ])('answers 400 naming the parameter for %s', async (query, field) => {
    const response = await get(`/api/v1/diseases?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, errors: [{ field }] });
  });

  it.each(['%%%', "'; DROP TABLE diseases; --", 'ünïcödé', '   ', 'a', '🙂🙂', '_\\', '(((', 'x'.repeat(200)])(
    'answers a strange name %j with a clean 200 or 404, never an error',
    async (name) => {
      const response = await get(`/api/v1/diseases?n=${encodeURIComponent(name)}`);
      expect([200, 404]).toContain(response.status);
    },
  );

  it('needs an API key', async () => {
    const response = await api(system.gatewayUrl, '/api/v1/diseases?n=asthma');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const unknown = await get('/api/v1/diseases?n=asthma', 'cfk_AAAAAAAA_' + 'x'.repeat(32));
    expect(unknown.status).toBe(401);
  });
});
