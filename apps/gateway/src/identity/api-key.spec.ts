import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key';

describe('API keys', () => {
  it('have a recognisable prefix, at least 128 random bits, and are stored as a hash only', () => {
    const fresh = generateApiKey();
    expect(fresh.key).toMatch(/^cfk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{32}$/);
    expect(fresh.key.startsWith(`${fresh.prefix}_`)).toBe(true);
    // 32 base64url characters carry 192 bits.
    expect(Buffer.from(fresh.key.split('_').slice(2).join('_'), 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(fresh.hash).toBe(hashApiKey(fresh.key));
    expect(fresh.hash).not.toContain(fresh.key);
    expect(looksLikeApiKey(fresh.key)).toBe(true);
  });

  it('never repeat', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    expect(keys.size).toBe(1000);
  });
});
