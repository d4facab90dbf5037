import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';
import { samples, scrape } from './metrics';

/**
 * What third-party clients rely on, asked with Node's own fetch (undici, the
 * Fetch standard's implementation) as a browser app or a script would.
 */
describe('HTTP semantics real clients rely on', () => {
  let system: RunningSystem;
  const APP = 'https://app.example.org';
  beforeAll(async () => {
    system = await startSystem({ env: { gateway: { CORS_ALLOWED_ORIGINS: `${APP}, http://localhost:5173` } } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  const url = (path: string) => `${system.gatewayUrl}${path}`;
  const auth = () => ({ authorization: `Bearer ${system.keys.admin}` });

  describe('conditional GET', () => {
    // The Fetch standard marks a conditional request "Cache-Control: no-cache"; browsers send it. That
    // directive addresses caches: the origin still evaluates If-None-Match (RFC 9110 §13.2).
    it.each(['/openapi.json', '/api/v1/drugs', '/dosages?n=paracetamol'])('%s: fetch gets its 304 with Cache-Control: no-cache', async (path) => {
      const first = await fetch(url(path), { headers: auth() });
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag') as string;
      expect(etag).toBeTruthy();
      const headers = { ...auth(), 'if-none-match': etag, 'cache-control': 'no-cache' };
      const again = await fetch(url(path), { headers });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      // A tag the server never gave, and a weak form of the right one (weak comparison, RFC 9110 §13.1.2).
      expect((await fetch(url(path), { headers: { ...headers, 'if-none-match': '"other"' } })).status).toBe(200);
      expect((await fetch(url(path), { headers: { ...headers, 'if-none-match': `"other", W/${etag.replace(/^W\//, '')}` } })).status).toBe(304);
    });
  });

  describe('a wrong method on an existing path', () => {
    it('gets 405 with Allow listing the declared methods, as a problem', async () => {
      const response = await fetch(url('/api/v1/transactions'), { method: 'PUT', headers: auth() });
      expect(response.status).toBe(405);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      const problem = (await response.json()) as { status: number; detail: string };
      expect(problem).toMatchObject({ status: 405, detail: expect.stringContaining('PUT') });

      const byId = await fetch(url('/api/v1/transactions/00000000-0000-4000-8000-000000000001'), { method: 'POST', headers: auth() });
      expect(byId.status).toBe(405);
      expect(byId.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');

      const options = await fetch(url('/api/v1/drugs'), { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    });

    it('a path that does not exist stays a 404', async () => {
      expect((await fetch(url('/api/v1/no-such-thing'), { method: 'PUT', headers: auth() })).status).toBe(404);
    });
  });

  describe('metrics', () => {
    it('label dosages and the dashboard with their route; only real 404s are unmatched', async () => {
      const found = await api(system.gatewayUrl, '/dosages?n=paracetamol', { key: system.keys.admin });
      const id = found.body.dosages[0].dosages[0].id as string;
      const paths = ['/dosages?n=paracetamol', '/api/v1/dosages?n=paracetamol', `/dosages/${id}`, `/api/v1/dosages/${id}`];
      for (const path of paths) expect((await fetch(url(path), { headers: auth() })).status).toBe(200);
      expect((await fetch(url('/dashboard/'))).status).toBe(200);
      expect((await fetch(url('/definitely-not-here'))).status).toBe(404);

      const metrics = await scrape(system.metricsUrl('gateway'));
      const routes = samples(metrics, 'http_requests_total', { method: 'GET', status: '200' }).map((s) => s.labels.route);
      expect(routes).toEqual(expect.arrayContaining(['/dosages', '/api/v1/dosages', '/dosages/:id', '/api/v1/dosages/:id', '/dashboard/*']));
      const unmatched = samples(metrics, 'http_requests_total', { route: 'unmatched' });
      expect(unmatched.length).toBeGreaterThan(0);
      expect(new Set(unmatched.map((s) => s.labels.status))).toEqual(new Set(['404']));
    });
  });

  describe('CORS', () => {
    it('answers an allowed origin\'s preflight with what it may send, cached', async () => {
      const preflight = await fetch(url('/api/v1/transactions/00000000-0000-4000-8000-000000000001'), {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, content-type, if-match' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
      expect(preflight.headers.get('access-control-allow-methods')).toMatch(/\bPATCH\b/);
      const allowedHeaders = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/,\s*/);
      expect(allowedHeaders).toEqual(expect.arrayContaining(['authorization', 'content-type', 'if-match', 'idempotency-key']));
      expect(Number(preflight.headers.get('access-control-max-age'))).toBeGreaterThanOrEqual(600);
      // Keys travel in Authorization, never cookies: no credentials mode.
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      expect(preflight.headers.get('vary')).toMatch(/origin/i);
    });

    it('exposes the headers a client reads on the actual request', async () => {
      const response = await fetch(url('/api/v1/drugs'), { headers: { ...auth(), origin: APP } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
      expect(exposed).toEqual(
        expect.arrayContaining(['etag', 'x-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'location', 'idempotent-replayed']),
      );
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      const other = await fetch(url('/healthz'), { headers: { origin: 'http://localhost:5173' } });
      expect(other.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    });

    it('gives an origin not configured no CORS headers, so its pages cannot read the API', async () => {
      const preflight = await fetch(url('/api/v1/drugs'), {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
      const actual = await fetch(url('/api/v1/drugs'), { headers: { ...auth(), origin: 'https://evil.example' } });
      expect(actual.headers.get('access-control-allow-origin')).toBeNull();
      expect(actual.headers.get('access-control-expose-headers')).toBeNull();
    });
  });

  describe('a first-time visitor at /', () => {
    it('gets a short HTML page in a browser, linking the docs, dashboard, changelog and status', async () => {
      const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      const response = await fetch(url('/'), { headers: { accept } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      const html = await response.text();
      for (const href of ['/docs', '/dashboard/', '/api/v1/changelog', '/readyz']) expect(html).toContain(`href="${href}"`);
    });

    it('gets a JSON index of the same links as an API client', async () => {
      for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }] as Record<string, string>[]) {
        const response = await api(system.gatewayUrl, '/', { headers });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('vary')).toMatch(/accept/i);
        expect(response.body.links).toMatchObject({
          docs: { href: '/docs' },
          dashboard: { href: '/dashboard/' },
          changelog: { href: '/api/v1/changelog' },
          status: { href: '/readyz' },
        });
      }
    });
  });
});
