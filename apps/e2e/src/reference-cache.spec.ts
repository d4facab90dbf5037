import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';

describe("the gateway's reference answer cache", () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  const get = (path: string, headers: Record<string, string> = {}) =>
    api(system.gatewayUrl, path, { key: system.keys.reader, headers });

  it('answers a repeated query without the reference service, and asks it again for no-cache', async () => {
    const first = await get('/api/v1/diseases?n=asthma&r=false');
    expect(first.status).toBe(200);
    expect(await system.stop('reference')).toBe(0);
    try {
      const repeated = await get('/api/v1/diseases?n=asthma&r=false');
      expect(repeated.status).toBe(200);
      expect(repeated.body).toEqual(first.body);
      // Another query, or the same one asked fresh, needs the service that is down; so do the detailed and FHIR
      // answers of the same query, for which the gateway asks the service for more than names (names_only).
      expect((await get('/api/v1/diseases?n=diabetes&r=false')).status).toBe(503);
      expect((await get('/api/v1/diseases?n=asthma&r=true')).status).toBe(503);
      expect((await get('/api/v1/diseases?n=asthma&r=false&_format=fhir')).status).toBe(503);
      expect((await get('/api/v1/diseases?n=asthma&r=false', { 'cache-control': 'no-cache' })).status).toBe(503);
    } finally {
      await system.start('reference');
    }
  });
});
