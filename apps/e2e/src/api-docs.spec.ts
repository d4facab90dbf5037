import { get } from 'node:http';
import { startSystem, type RunningSystem } from '@libs/testing';
import { api } from './http';

describe('the API documentation', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  it('serves the OpenAPI 3.1 document without a key', async () => {
    const { status, body } = await api(system.gatewayUrl, '/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/api/v1/diseases', '/api/v1/transactions', '/api/v1/audit']));
  });

  it('sends it as compressed JSON with an ETag, and 304 to a client that has it', async () => {
    const first = await fetch(`${system.gatewayUrl}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(((await first.json()) as { openapi: string }).openapi).toBe('3.1.0');
    // A client without fetch's Cache-Control: no-cache (curl-like); real-clients.spec.ts asks with fetch.
    const again = await new Promise<number | undefined>((resolve, reject) =>
      get(`${system.gatewayUrl}/openapi.json`, { headers: { 'if-none-match': etag as string } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject),
    );
    expect(again).toBe(304);
  });

  it('renders it at /docs from files the gateway serves itself, never a CDN', async () => {
    const page = await fetch(`${system.gatewayUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source.startsWith('/docs/assets/')).toBe(true);
      const asset = await fetch(`${system.gatewayUrl}${source}`);
      expect({ source, status: asset.status }).toEqual({ source, status: 200 });
    }
  });
});
