import { randomBytes, scryptSync } from 'node:crypto';
import { hashPassword, MAX_CONCURRENT_HASHES, MAX_QUEUED_HASHES, verifyPassword } from './password';

describe('password hashing (scrypt)', () => {
  it('stores the parameters and a random salt with the hash, never the password', async () => {
    const [first, second] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(first).toMatch(/^scrypt\$14\$8\$5\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toContain('correct');
    expect(first).not.toBe(second);
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
  });

  it('still accepts hashes stored with the earlier parameters (N = 2^15, r = 8, p = 1)', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('correct horse', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const stored = ['scrypt', 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsf', stored)).toBe(false);
  });

  it('treats NFC and NFD spellings of a password as the same', async () => {
    const stored = await hashPassword('Zoë secret');
    expect(await verifyPassword('Zoe\u0308 secret', stored)).toBe(true);
  });

  it('refuses when there is no hash (unknown email, or a user without a password)', async () => {
    expect(await verifyPassword('anything at all', undefined)).toBe(false);
    expect(await verifyPassword('anything at all', null)).toBe(false);
  });

  it('refuses a stored hash with parameters beyond its limits instead of allocating for them', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', stored.replace(/^scrypt\$14\$/, 'scrypt$30$'))).toBe(false);
    // 128 MiB of memory (N = 2^17, or r = 16 at N = 2^16) and over seven times today's work (p = 9 at N = 2^16) are past them.
    expect(await verifyPassword('correct horse', stored.replace(/^scrypt\$14\$/, 'scrypt$17$'))).toBe(false);
    expect(await verifyPassword('correct horse', stored.replace(/^scrypt\$14\$8\$5\$/, 'scrypt$16$16$1$'))).toBe(false);
    expect(await verifyPassword('correct horse', stored.replace(/^scrypt\$14\$8\$5\$/, 'scrypt$16$8$9$'))).toBe(false);
    expect(await verifyPassword('correct horse', 'md5$abc')).toBe(false);
  });

  it('refuses hashes beyond those running and queued with 503 and Retry-After: 1', async () => {
    const burst = 40;
    const outcomes = await Promise.allSettled(Array.from({ length: burst }, () => hashPassword('correct horse')));
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(refused).toHaveLength(burst - MAX_CONCURRENT_HASHES - MAX_QUEUED_HASHES);
    expect(refused[0]).toMatchObject({ status: 503, options: { headers: { 'Retry-After': '1' } } });
  }, 30_000);
});
