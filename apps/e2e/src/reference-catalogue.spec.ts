import { Sequelize } from 'sequelize';
import { startSystem, type RunningSystem } from '@libs/testing';
import { upsertLabTests } from '@libs/reference-db';
import { api } from './http';

// Walks make many requests and the run shares the machine: the root Jest run's 5 s default is too tight
// (testTimeout in apps/e2e/jest.config.cjs applies only when this project runs alone).
jest.setTimeout(60_000);

/** Every item of a paged list, following nextCursor; checks each page on the way. */
async function walk(get: (path: string) => ReturnType<typeof api>, path: string, listKey: string, pageSize: number) {
  const items: { id: string }[] = [];
  let cursor: string | undefined;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const { status, body } = await get(`${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status).toBe(200);
    expect(body[listKey].length).toBeLessThanOrEqual(pageSize);
    items.push(...body[listKey]);
    cursor = body.nextCursor;
    if (cursor !== undefined) {
      expect(cursor).not.toBe('');
      expect(body[listKey]).toHaveLength(pageSize);
    }
  } while (cursor);
  return items;
}

describe('reference catalogue through gateway, gRPC and the reference database', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const get = (path: string, headers: Record<string, string> = {}) =>
    api(system.gatewayUrl, path, { key: system.keys.reader, headers });

  it.each([
    ['/api/v1/labs?r=yes', 'r'],
    ['/api/v1/labs?n=a&n=b', 'n'],
    [`/api/v1/labs?n=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`, 'n'],
    [`/api/v1/labs?n=${'x'.repeat(201)}`, 'n'],
    ['/api/v1/categories?r=1', 'r'],
    ['/api/v1/categories?c=a%00b', 'c'],
    ['/api/v1/conditions?r=TRUE', 'r'],
    ['/api/v1/conditions?q=%01', 'q'],
    ['/api/v1/premises?r=', 'r'],
    ['/api/v1/premises?cursor=abc.def', 'cursor'],
    ['/api/v1/drugs?cursor=abc', 'cursor'],
    ['/dosages?n=a&cursor=x.y.z', 'cursor'],
  ])('%s → 400 problem naming %s', async (path, field) => {
    const response = await get(path);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.errors).toEqual([{ field, message: expect.any(String) }]);
  });

  describe('GET /api/v1/labs', () => {
    it('returns the basic fields, and the related ones with r=true', async () => {
      const basic = await get('/api/v1/labs?n=potassium');
      expect(basic.status).toBe(200);
      expect(basic.body.tests[0]).toEqual({
        id: expect.any(String),
        name: expect.stringMatching(/potassium/i),
        normalRange: expect.any(String),
        units: expect.any(String),
        categoryName: expect.any(String),
        subCategoryName: expect.any(String),
      });
      const detailed = await get('/api/v1/labs?n=potassium&r=true');
      expect(Object.keys(detailed.body.tests[0]).sort()).toEqual(
        ['categoryName', 'description', 'duration', 'id', 'methodology', 'name', 'normalRange', 'subCategoryName', 'testResults', 'units'],
      );
      expect(detailed.body.tests[0].testResults[0]).toEqual({
        name: expect.any(String),
        normalRange: expect.any(String),
        units: expect.any(String),
      });
    });

    it('matches any comma-separated term against name, category or subcategory, ignoring case', async () => {
      const { body } = await get('/api/v1/labs?n=POTASSIUM,haemoglobin');
      const names = body.tests.map((t: { name: string }) => t.name.toLowerCase());
      expect(names.some((n: string) => n.includes('potassium'))).toBe(true);
      expect(names.some((n: string) => n.includes('haemoglobin'))).toBe(true);
      const byCategory = await walk(get, '/api/v1/labs?n=microbiology', 'tests', 25);
      expect(byCategory.length).toBeGreaterThan(5);
      for (const test of byCategory as unknown as { categoryName: string }[]) expect(test.categoryName).toBe('Microbiology');
    });

    it('takes LIKE wildcards literally', async () => {
      expect((await get('/api/v1/labs?n=%25')).status).toBe(404);
      expect((await get('/api/v1/labs?n=_')).status).toBe(404);
    });

    it('walks 25 at a time through every test exactly once, also while tests are added', async () => {
      const before = await walk(get, '/api/v1/labs', 'tests', 25);
      expect(before.length).toBeGreaterThanOrEqual(120);

      const sequelize = new Sequelize(system.databaseUrl('reference'), { logging: false });
      try {
        const seen: string[] = [];
        let cursor: string | undefined;
        let added = 0;
        do {
          const { body } = await get(`/api/v1/labs${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
          seen.push(...body.tests.map((t: { id: string }) => t.id));
          cursor = body.nextCursor;
          // New tests land before, inside and after the part already walked.
          await sequelize.transaction((t) =>
            upsertLabTests(
              sequelize,
              ['AAA', 'MMM', 'ZZZ'].map((prefix) => ({
                sourceId: `test:${prefix}-${added}`,
                name: `${prefix} walk test ${added}`,
                categoryName: 'Test',
                subCategoryName: 'Walk',
                normalRange: '1-2',
                units: 'U',
              })),
              t,
            ),
          );
          added += 1;
        } while (cursor);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).toEqual(expect.arrayContaining(before.map((t) => t.id)));
      } finally {
        await sequelize.close();
      }
    });

    it('answers 404 problem+json when no test matches', async () => {
      const response = await get('/api/v1/labs?n=qqqzzzxxx');
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it('refuses a tampered cursor and a cursor replayed with other names', async () => {
      const first = await get('/api/v1/labs?n=a');
      const cursor: string = first.body.nextCursor;
      const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}${cursor.slice(-1)}`;
      for (const path of [`/api/v1/labs?n=a&cursor=${tampered}`, `/api/v1/labs?n=e&cursor=${cursor}`]) {
        const response = await get(path);
        expect(response.status).toBe(400);
        expect(response.body.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
      }
    });
  });

  describe('GET /dosages and /api/v1/dosages', () => {
    it('groups dosages by drug with every dosage field, under both paths', async () => {
      const plain = await get('/dosages?n=paracetamol');
      const versioned = await get('/api/v1/dosages?n=paracetamol');
      expect(plain.status).toBe(200);
      expect(versioned.body).toEqual(plain.body);
      expect(plain.body.dosages[0]).toEqual({
        drugName: 'Paracetamol',
        dosages: expect.arrayContaining([
          { form: expect.any(String), physicalForm: expect.any(String), adminMethod: 'oral', strength: expect.any(String), id: expect.any(String) },
        ]),
      });
      expect(Object.keys(plain.body.dosages[0].dosages[0])).toEqual(['form', 'physicalForm', 'adminMethod', 'strength', 'id']);
    });

    it('counts b in dosage entries and continues a drug group on the next page', async () => {
      const walkDosages = async (b: number) => {
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const { body } = await get(`/dosages?n=a&b=${b}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          const count = body.dosages.reduce((sum: number, g: { dosages: unknown[] }) => sum + g.dosages.length, 0);
          if (body.nextCursor) expect(count).toBe(b);
          for (const group of body.dosages) seen.push(...group.dosages.map((d: { id: string }) => `${group.drugName}/${d.id}`));
          cursor = body.nextCursor;
        } while (cursor);
        return seen;
      };
      const inBigPages = await walkDosages(500);
      expect(inBigPages.length).toBeGreaterThan(500);
      expect(new Set(inBigPages).size).toBe(inBigPages.length);
      expect(await walkDosages(7)).toEqual(inBigPages);
    });

    it('needs n, and b from 1 to 500', async () => {
      for (const [query, field] of [['', 'n'], ['n=%20', 'n'], ['n=aspirin&b=0', 'b'], ['n=aspirin&b=501', 'b'], ['n=aspirin&b=x', 'b']]) {
        const response = await get(`/dosages?${query}`);
        expect(response.status).toBe(400);
        expect(response.body.errors).toEqual([{ field, message: expect.any(String) }]);
      }
    });

    it('answers 404 when no dosage matches', async () => {
      expect((await get('/dosages?n=nosuchdrugxyz')).status).toBe(404);
    });

    it('fetches one dosage by id under both paths, and 404 for an unknown id', async () => {
      const { body } = await get('/dosages?n=warfarin');
      const id = body.dosages[0].dosages[0].id;
      for (const path of [`/dosages/${id}`, `/api/v1/dosages/${id}`]) {
        const one = await get(path);
        expect(one.status).toBe(200);
        expect(one.body).toEqual({ drugName: 'Warfarin', dosage: body.dosages[0].dosages[0] });
      }
      for (const id of ['999999999', 'abc', '-1', '1e3']) expect((await get(`/dosages/${id}`)).status).toBe(404);
    });

    it('needs an API key like the other reference endpoints', async () => {
      expect((await api(system.gatewayUrl, '/dosages?n=aspirin')).status).toBe(401);
    });
  });

  describe('GET /api/v1/drugs', () => {
    it('lists 50 drugs a page, each once, in name order', async () => {
      const drugs = (await walk(get, '/api/v1/drugs', 'drugs', 50)) as unknown as { id: string; name: string }[];
      expect(drugs.length).toBeGreaterThanOrEqual(200);
      expect(new Set(drugs.map((d) => d.id)).size).toBe(drugs.length);
      // Name order follows the database collation; initial letters are in order under any of them.
      const initials = drugs.map((d) => d.name[0]?.toLowerCase() ?? '');
      expect(initials).toEqual([...initials].sort());
      const withDrugbankId = (drugs as unknown as { drugbankId: string | null }[]).find((d) => d.drugbankId !== null);
      expect(withDrugbankId).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        drugbankId: expect.stringMatching(/^DB\d{5}$/),
        atcCodes: expect.arrayContaining([expect.stringMatching(/^[A-Z]\d\d[A-Z][A-Z]\d\d$/)]),
        description: expect.any(String),
      });
    });

    it.each(['BATCH_COUNT=10', 'batch_count=50', 'b=10'])('refuses to change the page size: %s → 400', async (query) => {
      const response = await get(`/api/v1/drugs?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.errors[0].field).toBe(query.split('=')[0]);
    });

    it('shows one drug with its dosages and ATC classification', async () => {
      const { body } = await get('/api/v1/drugs');
      const id = body.drugs[0].id;
      const one = await get(`/api/v1/drugs/${id}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ ...body.drugs[0], dosages: expect.any(Array), categories: expect.any(Array) });
      expect(one.body.dosages.length).toBeGreaterThan(0);
      expect((await get('/api/v1/drugs/424242424')).status).toBe(404);
    });

    it('lists food interactions of a drug, and an empty list for a drug without any', async () => {
      const drugs = (await walk(get, '/api/v1/drugs', 'drugs', 50)) as unknown as { id: string; name: string }[];
      const warfarin = drugs.find((d) => d.name === 'Warfarin');
      const { status, body } = await get(`/api/v1/drugs/${warfarin?.id}/food-interactions`);
      expect(status).toBe(200);
      expect(body.drug).toEqual({ id: warfarin?.id, name: 'Warfarin', drugbankId: 'DB00682' });
      expect(body.interactions).toEqual(
        expect.arrayContaining([
          { id: expect.any(String), food: expect.stringMatching(/vitamin k/i), severity: expect.any(String), effect: expect.any(String), advice: expect.any(String) },
        ]),
      );
      let withoutAny: unknown;
      for (const drug of drugs) {
        const response = await get(`/api/v1/drugs/${drug.id}/food-interactions`);
        if (response.body.interactions.length === 0) {
          withoutAny = response;
          break;
        }
      }
      expect(withoutAny).toMatchObject({ status: 200, body: { interactions: [] } });
      expect((await get('/api/v1/drugs/424242424/food-interactions')).status).toBe(404);
    });
  });

  describe('GET /api/v1/categories', () => {
    it('pages through every ATC group 25 at a time, by code', async () => {
      const all = (await walk(get, '/api/v1/categories', 'categories', 25)) as unknown as { code: string; level: number }[];
      expect(all.filter((c) => c.level === 1)).toHaveLength(14);
      expect(new Set(all.map((c) => c.code)).size).toBe(all.length);
    });

    it('matches codes and names, and lists related drugs with r=true', async () => {
      const { status, body } = await get('/api/v1/categories?c=a10,insulins&r=true');
      expect(status).toBe(200);
      const a10 = body.categories.find((c: { code: string }) => c.code === 'A10');
      expect(a10).toMatchObject({ name: expect.stringMatching(/diabetes/i), level: 2, parentCode: 'A' });
      expect(a10.drugs.map((d: { name: string }) => d.name)).toEqual(expect.arrayContaining(['Metformin']));
      expect(body.categories.some((c: { name: string }) => /insulins/i.test(c.name))).toBe(true);
      const basic = await get('/api/v1/categories?c=A10');
      expect(basic.body.categories[0]).toEqual({ code: 'A10', name: a10.name, level: 2, parentCode: 'A' });
    });

    it('answers 200 with an empty list when nothing matches', async () => {
      const { status, body } = await get('/api/v1/categories?c=zzzzqqq');
      expect(status).toBe(200);
      expect(body).toEqual({ categories: [] });
    });
  });

  describe('GET /api/v1/conditions', () => {
    it('pages 10 at a time and filters by name', async () => {
      const all = await walk(get, '/api/v1/conditions', 'conditions', 10);
      expect(all.length).toBeGreaterThanOrEqual(60);
      const { body } = await get('/api/v1/conditions?q=DIABETES');
      expect(body.conditions.length).toBeGreaterThan(0);
      for (const c of body.conditions) {
        expect(c).toEqual({ id: expect.any(String), name: expect.stringMatching(/diabetes/i), doid: expect.stringMatching(/^DOID:/), description: expect.any(String) });
      }
    });

    it('includes related drugs and indications with r=true', async () => {
      const { body } = await get('/api/v1/conditions?q=type%202%20diabetes&r=true');
      const condition = body.conditions[0];
      expect(condition.indications.length).toBeGreaterThan(0);
      expect(condition.indications[0]).toEqual({
        drugName: expect.any(String),
        drugId: expect.any(String),
        drugbankId: expect.stringMatching(/^DB\d{5}$/),
        type: expect.stringMatching(/^(treats|symptomatic)$/),
      });
      expect(condition.drugs).toEqual(
        expect.arrayContaining([{ id: condition.indications[0].drugId, name: condition.indications[0].drugName }]),
      );
    });

    it('answers 200 with an empty list when nothing matches', async () => {
      expect((await get('/api/v1/conditions?q=zzzzqqq')).body).toEqual({ conditions: [] });
    });
  });

  describe('GET /api/v1/premises', () => {
    it('pages 25 at a time, every premise marked as sample data', async () => {
      const all = (await walk(get, '/api/v1/premises', 'premises', 25)) as unknown as { sampleData: boolean }[];
      expect(all.length).toBeGreaterThanOrEqual(50);
      expect(all.every((p) => p.sampleData)).toBe(true);
    });

    it('filters by names and adds address, contact, hours and position with r=true', async () => {
      const { body } = await get('/api/v1/premises?n=pharmacy,hospital&r=true');
      expect(body.premises.length).toBeGreaterThan(0);
      expect(body.premises[0]).toEqual({
        id: expect.any(String),
        code: expect.any(String),
        name: expect.stringMatching(/pharmacy|hospital/i),
        type: expect.any(String),
        city: expect.any(String),
        country: expect.any(String),
        sampleData: true,
        address: expect.objectContaining({ line1: expect.any(String), city: expect.any(String) }),
        phone: expect.any(String),
        openingHours: expect.any(String),
        location: { latitude: expect.any(Number), longitude: expect.any(Number) },
        services: expect.any(Array),
      });
    });

    it('answers 200 with an empty list when nothing matches', async () => {
      expect((await get('/api/v1/premises?n=zzzzqqq')).body).toEqual({ premises: [] });
    });
  });
});
