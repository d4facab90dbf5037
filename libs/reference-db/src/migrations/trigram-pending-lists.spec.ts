import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from './index';

/** gin_pending_list_limit is in kB; a GIN page is 8 kB. */
const LIMIT_PAGES = 64 / 8;

describe('trigram indexes after a bulk write', () => {
  let db: ScratchDatabase;

  beforeAll(async () => {
    db = await createScratchDatabase('refpending', migrations);
    // pgstatginindex reports the pending list; the extension ships with PostgreSQL's contrib modules.
    await db.sequelize.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
  });
  afterAll(() => db?.drop());

  it('keep at most 64 kB of unmerged entries, which every search would read', async () => {
    await db.sequelize.query(`
      INSERT INTO diseases (disease_id, name) SELECT 'MESH:T' || i, 'Disease ' || md5(i::text) FROM generate_series(1, 3000) AS i;
      INSERT INTO disease_terms (disease_pk, term, is_name) SELECT id, lower(name), true FROM diseases;
      INSERT INTO drugs (source_id, name) SELECT 'synthetic:' || i, 'Drug ' || md5(i::text) FROM generate_series(1, 3000) AS i;
    `);
    const indexes = await db.sequelize.query<{ name: string; pending_pages: number; options: string[] | null }>(
      `SELECT c.relname AS name, (pgstatginindex(c.oid)).pending_pages, c.reloptions AS options
         FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_opclass o ON o.oid = ANY (i.indclass)
        WHERE o.opcname = 'gin_trgm_ops'`,
      { type: QueryTypes.SELECT },
    );
    expect(indexes.map((index) => index.name)).toEqual(expect.arrayContaining(['disease_terms_trgm', 'drugs_name_trgm']));
    expect(indexes.filter((index) => index.pending_pages > LIMIT_PAGES)).toEqual([]);
    // The tables written above show the limit at work; every trigram index, including any added later, must carry it.
    expect(indexes.filter((index) => !index.options?.includes('gin_pending_list_limit=64')).map((index) => index.name)).toEqual([]);
  });
});
