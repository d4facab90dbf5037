import { HealthProbe } from '@libs/grpc';
import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';

/** The reported request: an id of 'a' and 30 emoji, which a 40-unit cut once split inside a surrogate pair. */
const EMOJI_ID = `a${'%F0%9F%98%80'.repeat(30)}`;

const PATHS = [
  `/api/v1/dosages/${EMOJI_ID}`,
  `/dosages/${EMOJI_ID}`,
  `/api/v1/drugs/${EMOJI_ID}`,
  `/api/v1/drugs/${EMOJI_ID}/food-interactions`,
];

describe('an id of emoji that a cut would split (issue 12, item 1)', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    // The cache off, so that every request reaches the reference service.
    system = await startSystem({ env: { gateway: { REFERENCE_CACHE_TTL_MS: '0' } } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  it.each(PATHS.map((path) => [path.replace(EMOJI_ID, 'a + 30 emoji'), path]))('GET %s answers a 4xx problem and the reference service stays up', async (_name, path) => {
    const pid = system.pid('reference');
    const response = await api(system.gatewayUrl, path, { key: system.keys.reader });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: response.status, detail: expect.any(String) });

    expect(system.pid('reference')).toBe(pid);
    const probe = new HealthProbe(system.grpcAddress('reference'));
    try {
      expect(await probe.check(5_000)).toBe('SERVING');
    } finally {
      probe.close();
    }
  });
});
