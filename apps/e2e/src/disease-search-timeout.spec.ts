import { Client } from 'pg';
import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';

/**
 * A disease search that runs past the reference service's statement timeout
 * (SEARCH_STATEMENT_TIMEOUT_MS) is stopped at the database and answered 429
 * with Retry-After; however many there are, the gateway's breaker stays
 * closed, so other users' searches go on.
 */
describe('a disease search stopped by its statement timeout', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ env: { reference: { SEARCH_STATEMENT_TIMEOUT_MS: '100' } } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  const search = (n: string) =>
    api(system.gatewayUrl, `/api/v1/diseases?n=${encodeURIComponent(n)}`, {
      key: system.keys.reader,
      headers: { 'cache-control': 'no-cache' },
    });

  it('answers 429 problem+json with Retry-After, and never opens the breaker', async () => {
    // Another transaction holds the search tables, so each search statement waits until its timeout stops it.
    const holder = new Client({ connectionString: system.databaseUrl('reference') });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE diseases, disease_terms IN ACCESS EXCLUSIVE MODE');
      // More than the breaker's volume threshold (10 calls), all of them failing if they counted as failures.
      for (let i = 0; i < 12; i++) {
        const response = await search(`asthma ${i}`);
        expect(response.status).toBe(429);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(response.body).toMatchObject({
          status: 429,
          detail: 'the search ran longer than the 100 ms allowed at the database and was stopped; retry later, or search for something more specific',
        });
      }
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    const after = await search('asthma');
    expect(after.status).toBe(200);
    expect(after.body.diseases[0].Disease_Name).toBe('Asthma');
  }, 60_000);
});
