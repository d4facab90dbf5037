import { Sequelize } from 'sequelize';
import { startSystem, type RunningSystem } from '@libs/testing';
import { drugSourceId, fdaProductSourceId, upsertDosages, upsertDrugs } from '@libs/reference-db';
import { api } from './http';

jest.setTimeout(60_000);

interface Drug {
  id: string;
  name: string;
}

/**
 * Drug search (`GET /api/v1/drugs?n=`, docs/SEARCH.md "Drug search") through the gateway, gRPC and the
 * reference database: the default data, and products written as the Drugs@FDA import writes them (active
 * ingredient as the drug, the brand on each product).
 */
describe('drug search', () => {
  let system: RunningSystem;
  const products = [
    ['METFORMIN HYDROCHLORIDE', 'GLUCOPHAGE'],
    ['GLIPIZIDE; METFORMIN HYDROCHLORIDE', 'METAGLIP'],
    ['IBUPROFEN', 'ADVIL'],
    ['IBUPROFEN', 'MOTRIN IB'],
    ['Pyriméthamine', 'DARAPRIM'],
  ];
  beforeAll(async () => {
    system = await startSystem();
    const sequelize = new Sequelize(system.databaseUrl('reference'), { logging: false });
    try {
      await sequelize.transaction(async (transaction) => {
        // More drugs of one search than a page holds.
        const paged = Array.from({ length: 70 }, (_, i) => `Paging sample ${i + 1}`);
        const drugs = [...products.map(([ingredient]) => ingredient), ...paged].map((name) => ({ sourceId: drugSourceId({ name }), name }));
        await upsertDrugs(sequelize, drugs, transaction);
        const dosages = products.map(([ingredient, brand], i) => ({
          sourceId: fdaProductSourceId('900000', String(i + 1).padStart(3, '0')),
          drugSourceId: drugSourceId({ name: ingredient }),
          form: 'TABLET',
          adminMethod: 'ORAL',
          brandName: brand,
        }));
        await upsertDosages(sequelize, dosages, transaction);
      });
    } finally {
      await sequelize.close();
    }
  }, 90_000);
  afterAll(() => system?.shutdown());

  // The gateway keeps reference answers for a minute: every search here asks afresh.
  const get = (path: string) => api(system.gatewayUrl, path, { key: system.keys.reader, headers: { 'cache-control': 'no-cache' } });
  const names = async (n: string): Promise<string[]> => {
    const response = await get(`/api/v1/drugs?n=${encodeURIComponent(n)}`);
    expect(response.status).toBe(200);
    return response.body.drugs.map((drug: Drug) => drug.name);
  };

  it('finds ibuprofen products through a typo, and by brand', async () => {
    expect((await names('ibuprofn')).slice(0, 2).map((name) => name.toLowerCase())).toEqual(['ibuprofen', 'ibuprofen']);
    expect((await names('advl'))[0]).toBe('IBUPROFEN');
    expect((await names('motrin'))[0]).toBe('IBUPROFEN');
  });

  it('understands salt forms: metformin finds metformin hydrochloride, before the combinations holding it', async () => {
    const found = await names('metformin');
    expect(found.slice(0, 2).sort()).toEqual(['METFORMIN HYDROCHLORIDE', 'Metformin']);
    expect(found).toContain('GLIPIZIDE; METFORMIN HYDROCHLORIDE');
    expect((await names('metfromin'))[0].toLowerCase()).toMatch(/^metformin/);
    expect((await names('glucophage'))[0]).toBe('METFORMIN HYDROCHLORIDE');
  });

  it('ignores letter case and accents, in the query and in the names', async () => {
    // The default data's Pyrimethamine is as near.
    expect((await names('PYRIMETHAMINE')).slice(0, 2)).toContain('Pyriméthamine');
    expect((await names('pyriméthamine')).slice(0, 2)).toContain('Pyriméthamine');
    expect((await names('ÍBUPRÔFEN'))[0].toLowerCase()).toBe('ibuprofen');
  });

  it('answers the drug fields, and an empty list when nothing is near', async () => {
    const response = await get('/api/v1/drugs?n=ibuprofen');
    expect(response.body.drugs.map((drug: Drug) => Object.keys(drug).sort())).toEqual(
      response.body.drugs.map(() => ['atcCodes', 'description', 'drugbankId', 'id', 'name']),
    );
    expect((await get('/api/v1/drugs?n=qqqqxxzz')).body).toEqual({ drugs: [] });
  });

  it('pages 50 at a time, each drug once, with a cursor bound to the search', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const response = await get(`/api/v1/drugs?n=paging%20sampel${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(response.status).toBe(200);
      seen.push(...response.body.drugs.map((drug: Drug) => drug.id));
      cursor = response.body.nextCursor;
      if (cursor) expect(response.body.drugs).toHaveLength(50);
      pages += 1;
    } while (cursor);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThanOrEqual(70);

    const first = await get('/api/v1/drugs?n=paging%20sampel');
    const replayed = await get(`/api/v1/drugs?n=paging&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(replayed.status).toBe(400);
    expect(replayed.body.errors).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    // Nor does a search cursor continue the plain list, or the other way round.
    expect((await get(`/api/v1/drugs?cursor=${encodeURIComponent(first.body.nextCursor)}`)).status).toBe(400);
  });

  it.each([
    [`n=${'x'.repeat(201)}`, 'n'],
    ['n=ibu%00profen', 'n'],
    ['n=a&n=b', 'n'],
    ['n=ibuprofen&BATCH_COUNT=10', 'BATCH_COUNT'],
  ])('%s → 400 problem naming %s', async (query, field) => {
    const response = await get(`/api/v1/drugs?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.errors).toEqual([{ field, message: expect.any(String) }]);
  });

  it('without n, lists every drug in name order as before', async () => {
    const response = await get('/api/v1/drugs');
    expect(response.body.drugs).toHaveLength(50);
    const initials = response.body.drugs.map((drug: Drug) => drug.name[0].toLowerCase());
    expect(initials).toEqual([...initials].sort());
  });
});
