/**
 * Signatures of the Standard Webhooks specification, so that its published verifiers (and ours, in the SDK) accept
 * every delivery unchanged: HMAC-SHA256 of `id.timestamp.body` with the secret's bytes, sent as `v1,<base64>`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
/** What a secret looks like: the prefix, then standard base64 (the specification's verifiers decode it so). */
const SECRET_SHAPE = /^whsec_(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const SIGNATURE_VERSION = 'v1';
/** The window the specification's verifiers allow by default, either side of the receiver's clock. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
/** Unix seconds, written as digits only; more than 12 digits is tens of thousands of years away. */
const TIMESTAMP_SHAPE = /^\d{1,12}$/;

/** The three headers of a signed delivery. */
export interface SignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export class InvalidSecretError extends Error {
  constructor() {
    super(`a webhook secret is ${SECRET_PREFIX} followed by base64`);
    this.name = 'InvalidSecretError';
  }
}

/** A new endpoint secret: shown to its owner once, then kept to sign with. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  const key = SECRET_SHAPE.test(secret) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : undefined;
  if (!key?.length) throw new InvalidSecretError();
  return key;
}

function mac(key: Buffer, id: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** Signed and sent as bytes, so what is signed is exactly what goes on the wire. */
const bytesOf = (body: Buffer | string) => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

/**
 * The headers for one attempt. Several secrets (during a rotation, the new one and the old one) give several
 * signatures, space-separated: a receiver that knows either secret verifies.
 */
export function signatureHeaders(message: {
  id: string;
  timestamp: Date;
  body: Buffer | string;
  secrets: readonly string[];
}): SignatureHeaders {
  if (message.secrets.length === 0) throw new InvalidSecretError();
  const timestamp = String(Math.floor(message.timestamp.getTime() / 1000));
  const body = bytesOf(message.body);
  const signatures = message.secrets.map(
    (secret) => `${SIGNATURE_VERSION},${mac(secretKey(secret), message.id, timestamp, body).toString('base64')}`,
  );
  return { 'webhook-id': message.id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}

export type VerifyResult =
  | { ok: true }
  | { ok: false; reason: 'missing-header' | 'bad-timestamp' | 'too-old' | 'too-new' | 'no-match' };

/** Header names in any case, as Node's `IncomingHttpHeaders` (lower case) or a framework's map gives them. */
type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: Headers, name: keyof SignatureHeaders): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Checks a delivery against the raw body as received: bytes, before any JSON parser has touched them (a parsed and
 * re-serialised body differs). Any of the receiver's secrets matching any `v1` signature accepts it; the timestamp
 * must be within the tolerance of `now`, so a captured delivery cannot be replayed later.
 */
export function verifySignature(delivery: {
  body: Buffer | string;
  headers: Headers;
  secrets: readonly string[];
  now?: Date;
  toleranceSeconds?: number;
}): VerifyResult {
  const id = header(delivery.headers, 'webhook-id');
  const timestamp = header(delivery.headers, 'webhook-timestamp');
  const signatures = header(delivery.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing-header' };
  if (!TIMESTAMP_SHAPE.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  const age = Math.floor((delivery.now ?? new Date()).getTime() / 1000) - Number(timestamp);
  const tolerance = delivery.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (age > tolerance) return { ok: false, reason: 'too-old' };
  if (age < -tolerance) return { ok: false, reason: 'too-new' };

  const body = bytesOf(delivery.body);
  const expected = delivery.secrets.map((secret) => mac(secretKey(secret), id, timestamp, body));
  const offered = signatures
    .split(' ')
    .filter((signature) => signature.startsWith(`${SIGNATURE_VERSION},`))
    .map((signature) => Buffer.from(signature.slice(SIGNATURE_VERSION.length + 1), 'base64'));
  const matches = offered.some((candidate) =>
    expected.some((digest) => candidate.length === digest.length && timingSafeEqual(candidate, digest)),
  );
  return matches ? { ok: true } : { ok: false, reason: 'no-match' };
}
