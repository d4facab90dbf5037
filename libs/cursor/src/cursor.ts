import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '@libs/contracts';

export class InvalidCursorError extends Error {
  /** What is wrong with the cursor, worded to follow its name: `is malformed`. */
  constructor(readonly reason: string) {
    super(`cursor ${reason}`);
    this.name = 'InvalidCursorError';
  }
}

/** A signed payload is one this codec made, so this only fails if the secret leaked or the format changed. */
function parsePayload(payload: string): { q?: unknown; k?: unknown } {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof decoded === 'object' && decoded !== null) return decoded;
  } catch {
    // falls through to the refusal
  }
  throw new InvalidCursorError('is malformed');
}

/**
 * Opaque keyset cursors: base64url(JSON{q, k}) + "." + base64url(HMAC).
 * `k` is the keyset position after the last row served; `q` is a digest of the
 * query that made the cursor, so a cursor replayed with other filters is refused.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  private sign(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest();
  }

  private digest(query: unknown): string {
    return createHash('sha256').update(canonicalJson(query)).digest('base64url').slice(0, 22);
  }

  encode(query: unknown, position: unknown): string {
    return this.encoderFor(query)(position);
  }

  /**
   * Encodes positions of one query, whose digest is made once: for a caller that signs many (a page of slot
   * tokens), where the digest's canonical JSON and hash cost as much as each signature.
   */
  encoderFor(query: unknown): (position: unknown) => string {
    const q = this.digest(query);
    return (position) => {
      const payload = Buffer.from(JSON.stringify({ q, k: position })).toString('base64url');
      return `${payload}.${this.sign(payload).toString('base64url')}`;
    };
  }

  /** Returns the keyset position, or throws InvalidCursorError for anything forged, damaged or foreign. */
  decode<T>(cursor: string, query: unknown): T {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined || cursor.length > 2048) {
      throw new InvalidCursorError('is malformed');
    }
    const expected = this.sign(payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new InvalidCursorError('does not match its signature; pass nextCursor back unchanged');
    }
    const decoded = parsePayload(payload);
    if (decoded.q !== this.digest(query)) {
      throw new InvalidCursorError('belongs to a different query; repeat the original filters with it');
    }
    return decoded.k as T;
  }
}
