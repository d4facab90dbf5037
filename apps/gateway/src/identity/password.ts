import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HashGate } from './hash-gate';

// N = 2^14, r = 8, p = 5: one of OWASP's equivalent scrypt minimums (N = 2^17, r = 8, p = 1 is another). The
// lanes (p) run one after the other in the same 16 MiB (128 · N · r), half the memory of the first release's
// N = 2^15, r = 8, p = 1 (still read, and made again at the next sign-in), for 2.5 times its work and
// somewhat less than twice its time (docs/PERFORMANCE.md, "Figures behind design comments"): the gateway's peak memory holds
// MAX_CONCURRENT_HASHES of these at once. The parameters travel with each hash, so they can grow later.
const CURRENT = { logN: 14, r: 8, p: 5 };
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
// The largest parameters we accept when reading a stored hash, so that a
// tampered row cannot make a login allocate more than 64 MiB (128 · N · r)
// nor work more than about six times as long as a hash of today's (N · r · p).
const MAX_LOG_N = 16;
const MAX_R = 8;
const MAX_P = 8;

// scrypt runs on libuv's pool (4 threads by default), which gzip and DNS
// lookups share: a burst of sign-ins holding every thread stalls everyone's
// compressed answers. Two hashes at once leave half the pool free; 32 waiting
// are about two seconds of work, beyond which a sign-in is refused with 503.
export const MAX_CONCURRENT_HASHES = 2;
export const MAX_QUEUED_HASHES = 32;
const hashGate = new HashGate(MAX_CONCURRENT_HASHES, MAX_QUEUED_HASHES);

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 1_048_576 };
  return hashGate.run(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

/** `scrypt$<logN>$<r>$<p>$<salt>$<hash>` (base64url): the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, CURRENT.logN, CURRENT.r, CURRENT.p);
  return ['scrypt', CURRENT.logN, CURRENT.r, CURRENT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

interface StoredHash {
  logN: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): StoredHash | undefined {
  const [scheme, logN, r, p, salt, key, extra] = stored.split('$');
  const numbers = [Number(logN), Number(r), Number(p)];
  if (scheme !== 'scrypt' || extra !== undefined || !numbers.every(Number.isInteger)) return undefined;
  const [n, rr, pp] = numbers;
  if (n < 1 || n > MAX_LOG_N || rr < 1 || rr > MAX_R || pp < 1 || pp > MAX_P) return undefined;
  return { logN: n, r: rr, p: pp, salt: Buffer.from(salt ?? '', 'base64url'), key: Buffer.from(key ?? '', 'base64url') };
}

/** Whether a stored hash was made with other parameters than today's: it is made again at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.logN !== CURRENT.logN || parsed.r !== CURRENT.r || parsed.p !== CURRENT.p;
}

let dummyHash: Promise<string> | undefined;

/**
 * True when the password matches. An absent hash (unknown email, or a user
 * without a password) is checked against a dummy hash with the current
 * parameters, so that the answer takes as long as for a wrong password.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  // A refused (503) dummy hash is forgotten, so that the next sign-in makes it again.
  dummyHash ??= hashPassword(randomBytes(16).toString('hex')).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  const parsed = parse(stored ?? (await dummyHash));
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.logN, parsed.r, parsed.p);
  const matches = key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
  return matches && stored !== null && stored !== undefined;
}
