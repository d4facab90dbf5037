import { Sequelize, type Transaction } from 'sequelize';
import { startSystem, type RunningSystem } from '@libs/testing';
import { drugSourceId, fdaProductSourceId, upsertDosages, upsertDrugs } from '@libs/reference-db';
import { api } from './http';

jest.setTimeout(60_000);

interface Drug {
  id: string;
  name: string;
}

/**
 * Finding a concept through the gateway, gRPC and the reference database: drug search
 * (`GET /api/v1/drugs?n=`, docs/SEARCH.md "Drug search") and code lookup (`GET /api/v1/codes`,
 * docs/REFERENCE.md "Code lookup"), on the default data and on products written as the Drugs@FDA import
 * writes them (active ingredient as the drug, the brand on each product).
 */
describe('reference lookup', () => {
  let system: RunningSystem;
  const products = [
    ['METFORMIN HYDROCHLORIDE', 'GLUCOPHAGE'],
    ['GLIPIZIDE; METFORMIN HYDROCHLORIDE', 'METAGLIP'],
    ['IBUPROFEN', 'ADVIL'],
    ['IBUPROFEN', 'MOTRIN IB'],
    ['Pyriméthamine', 'DARAPRIM'],
  ];
  /** Writes to the reference database as the importer does, through the writers, in one transaction. */
  async function writeReference(write: (sequelize: Sequelize, transaction: Transaction) => Promise<void>): Promise<void> {
    const sequelize = new Sequelize(system.databaseUrl('reference'), { logging: false });
    try {
      await sequelize.transaction((transaction) => write(sequelize, transaction));
    } finally {
      await sequelize.close();
    }
  }
  beforeAll(async () => {
    system = await startSystem();
    await writeReference(async (sequelize, transaction) => {
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

  describe('code lookup', () => {
    const lookup = (system: string, code: string) => get(`/api/v1/codes?system=${system}&code=${encodeURIComponent(code)}`);

    it.each([
      ['mesh', 'MESH:D003920', 'MESH:D003920', 'disease', 'Diabetes Mellitus'],
      ['mesh', 'd003920', 'MESH:D003920', 'disease', 'Diabetes Mellitus'],
      ['omim', 'OMIM:222100', 'OMIM:222100', 'disease', 'Diabetes Mellitus, Type 1'], // an alternative id
      ['omim', '125853', 'OMIM:125853', 'disease', 'Diabetes Mellitus, Type 2'],
      ['drugbank', 'db00331', 'DB00331', 'drug', 'Metformin'],
      ['atc', 'a10ba02', 'A10BA02', 'category', expect.stringMatching(/metformin/i)],
      ['loinc', '62292-8', '62292-8', 'lab', '25-hydroxyvitamin D'],
      ['fda-application', '900000', '900000', 'drug', 'METFORMIN HYDROCHLORIDE'],
      ['fda-product', '900000-3', '900000-003', 'drug', 'IBUPROFEN'],
    ])('%s %s → %s, a %s', async (system, code, written, type, name) => {
      const response = await lookup(system, code);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, max-age=300');
      expect(response.body.code).toBe(written);
      expect(response.body.concepts[0]).toEqual({ type, id: expect.any(String), name });
    });

    it('resolves a DOID to its condition and to the diseases that carry it', async () => {
      const { body } = await lookup('doid', 'DOID:9352');
      expect(body.concepts).toEqual(
        expect.arrayContaining([
          { type: 'condition', id: expect.any(String), name: 'Type 2 diabetes mellitus' },
          { type: 'disease', id: expect.any(String), name: 'Diabetes Mellitus, Type 2' },
        ]),
      );
    });

    it('gives ids that open the concept', async () => {
      const { body } = await lookup('drugbank', 'DB00331');
      const drug = await get(`/api/v1/drugs/${body.concepts[0].id}`);
      expect(drug.body.drugbankId).toBe('DB00331');
    });

    it('lists every drug of an FDA application', async () => {
      const { body } = await lookup('fda-application', '900000');
      expect(body.concepts.map((c: { name: string }) => c.name).sort()).toEqual([
        'GLIPIZIDE; METFORMIN HYDROCHLORIDE',
        'IBUPROFEN',
        'METFORMIN HYDROCHLORIDE',
        'Pyriméthamine',
      ]);
    });

    it.each([
      ['mesh', 'D999999999'],
      ['mesh', 'not a code'],
      ['drugbank', 'DB0033'],
    ])('%s %s → 404 problem', async (system, code) => {
      const response = await lookup(system, code);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it.each([
      ['/api/v1/codes?code=D003920', 'system'],
      ['/api/v1/codes?system=icd10&code=E11', 'system'],
      ['/api/v1/codes?system=mesh', 'code'],
      ['/api/v1/codes?system=loinc&code=%20', 'code'],
      [`/api/v1/codes?system=mesh&code=${'D'.repeat(201)}`, 'code'],
      ['/api/v1/codes?system=mesh&code=D00%0039', 'code'],
    ])('%s → 400 problem naming %s', async (path, field) => {
      const response = await get(path);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field, message: expect.any(String) }]);
    });
  });

  describe('type-ahead', () => {
    interface Suggestion {
      type: string;
      id: string;
      display: string;
      matched: string | null;
    }
    const suggest = async (query: string): Promise<Suggestion[]> => {
      const response = await get(`/api/v1/suggest?${query}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('private, max-age=300');
      return response.body.suggestions;
    };

    it('ranks metformin first for "metfromin"', async () => {
      const [first] = await suggest('q=metfromin');
      expect(first).toMatchObject({ type: 'drug', display: expect.stringMatching(/^metformin/i) });
    });

    it('completes a partial word from names and synonyms, diseases and drugs alike', async () => {
      const diseases = await suggest('q=diab');
      expect(diseases[0]).toMatchObject({ type: 'disease', display: expect.stringMatching(/^diabet/i) });
      // A brand: the drug is shown with the brand it matched.
      expect((await suggest('q=glucoph'))[0]).toEqual({ type: 'drug', id: expect.any(String), display: 'METFORMIN HYDROCHLORIDE', matched: 'glucophage' });
      // A typo in a prefix.
      expect((await suggest('q=daibetes'))[0]).toMatchObject({ type: 'disease', display: expect.stringMatching(/^diabetes/i) });
    });

    it('keeps to the types asked for and to the limit', async () => {
      const drugs = await suggest('q=me&types=drugs&limit=3');
      expect(drugs.length).toBeGreaterThan(0);
      expect(drugs.length).toBeLessThanOrEqual(3);
      expect(new Set(drugs.map((item) => item.type))).toEqual(new Set(['drug']));
      expect(await suggest('q=qqxxzzqq')).toEqual([]);
    });

    it('completes lab tests by name, abbreviation and reported component, through a typo too', async () => {
      expect((await suggest('q=alanine%20amino'))[0]).toMatchObject({ type: 'lab', display: 'Alanine aminotransferase (ALT)', matched: null });
      // The abbreviation finds the test whose name holds it, and the panels that report it.
      const alt = await suggest('q=alt&types=labs');
      expect(alt).toContainEqual(expect.objectContaining({ type: 'lab', display: 'Alanine aminotransferase (ALT)', matched: null }));
      expect(alt.map((item) => item.display)).toContain('Liver function tests');
      expect((await suggest('q=ferritn'))[0]).toMatchObject({ type: 'lab', display: 'Ferritin' });
      const haemoglobin = await suggest('q=haemoglob&types=labs');
      expect(haemoglobin.map((item) => item.matched)).toContain('haemoglobin');
    });

    it('completes conditions, with or without the possessive\'s apostrophe, through a typo too', async () => {
      expect((await suggest('q=alzheimers%20d&types=conditions'))[0]).toMatchObject({
        type: 'condition',
        display: "Alzheimer's disease",
        matched: 'alzheimers disease',
      });
      expect((await suggest('q=schizo&types=conditions'))[0]).toMatchObject({ type: 'condition', display: 'Schizophrenia', matched: null });
      expect((await suggest('q=hypertensoin&types=conditions'))[0]).toMatchObject({ type: 'condition', display: 'Hypertension' });
    });

    it('keeps to lab tests and conditions when asked for them alone', async () => {
      // "co": Colon cancer, Coronary artery disease…; Complete blood count, Cortisol…
      const found = await suggest('q=co&types=labs,%20conditions&limit=20');
      expect(new Set(found.map((item) => item.type))).toEqual(new Set(['lab', 'condition']));
    });

    it('gives ids that open the concept', async () => {
      const [drug] = await suggest('q=ibuprofen&types=drugs');
      expect((await get(`/api/v1/drugs/${drug.id}`)).body.name.toLowerCase()).toBe('ibuprofen');
    });

    it('suggests a drug as soon as its write is committed', async () => {
      // The reference service answers type-ahead from the terms in memory: this request builds them.
      expect(await suggest('q=zorvat&types=drugs')).toEqual([]);
      await writeReference((sequelize, transaction) => upsertDrugs(sequelize, [{ sourceId: drugSourceId({ name: 'Zorvatinib' }), name: 'Zorvatinib' }], transaction));
      expect(await suggest('q=zorvat&types=drugs')).toEqual([{ type: 'drug', id: expect.any(String), display: 'Zorvatinib', matched: null }]);
    });

    it.each([
      ['q=a', 'q'],
      ['types=drugs', 'q'],
      ['q=%00a', 'q'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q=ab&types=premises,drugs', 'types'],
      ['q=ab&types=lab', 'types'],
      ['q=ab&types=labs;conditions', 'types'],
      ['q=ab&limit=21', 'limit'],
      ['q=ab&limit=0', 'limit'],
    ])('%s → 400 problem naming %s', async (query, field) => {
      const response = await get(`/api/v1/suggest?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field, message: expect.any(String) }]);
    });
  });
});
