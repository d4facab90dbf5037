import type { AddressInfo } from 'node:net';
import { createLogger } from '@libs/logging';
import { createSequelize } from '@libs/db';
import { KeyVerifier, keyVerifierOptions } from '../identity/key-verifier';
import { configSchema } from '../config';
import { buildApp } from '../app';
import { allUpstreams, connectUpstreams } from '../platform/upstreams/upstreams';

// GET /api/v1/metadata needs neither key nor service: an app built with unconnected clients answers it.
async function metadataUrl(env: Record<string, string>, headers: Record<string, string> = {}): Promise<string> {
  const config = configSchema.parse(env);
  const logger = createLogger('gateway', 'silent');
  const sequelize = createSequelize(config.DATABASE_URL, 1);
  const keys = new KeyVerifier(sequelize, keyVerifierOptions(config), logger);
  const upstreams = connectUpstreams(config, logger);
  const server = buildApp({ config, logger, sequelize, keys, upstreams, releases: [] }).listen(0, '127.0.0.1');
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/metadata`, { headers });
    expect(response.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    return ((await response.json()) as { implementation: { url: string } }).implementation.url;
  } finally {
    server.close();
    for (const upstream of allUpstreams(upstreams)) upstream.shutdown();
    await keys.stop();
    await sequelize.close();
  }
}

describe('the public base URL of absolute links', () => {
  it('is PUBLIC_BASE_URL when configured, whatever the request says', async () => {
    const forwarded = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    expect(await metadataUrl({ PUBLIC_BASE_URL: 'https://api.example.org/clinical/' }, forwarded)).toBe(
      'https://api.example.org/clinical/api/v1',
    );
  });

  it("falls back to the request's origin, and believes X-Forwarded-* only from a trusted proxy", async () => {
    const forwarded = { 'x-forwarded-host': 'api.example.org', 'x-forwarded-proto': 'https' };
    expect(await metadataUrl({}, forwarded)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(await metadataUrl({ TRUST_PROXY: 'loopback' }, forwarded)).toBe('https://api.example.org/api/v1');
  });

  it('refuses a PUBLIC_BASE_URL that is not an http(s) URL', () => {
    expect(configSchema.safeParse({ PUBLIC_BASE_URL: 'ftp://example.org' }).success).toBe(false);
  });
});
