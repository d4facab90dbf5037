import { sign, verify, type KeyObject } from 'node:crypto';
import { keyPairOf, listedKeys, publicKeyOf, type PublicKey } from '@libs/signing';

/** The user a call acts for: whom the gateway vouches for, and whom a service checks a role of. */
export interface Actor {
  userId: string;
  role: string;
}

/** Where one call goes: the service it is for (the token's audience) and its full gRPC path (/package.Service/Method). */
export interface CallTarget {
  audience: string;
  path: string;
}

/** The longest a token lives: a call's deadline is seconds, and a captured token is worth at most this much. */
export const TOKEN_LIFETIME_MS = 30_000;
/**
 * How long the gateway reuses one token for the same actor, service and method: an Ed25519 signature per call would
 * cost the gateway CPU on every forwarded request. Well inside TOKEN_LIFETIME_MS, so a reused token has 20 s left.
 */
const REUSE_MS = 10_000;
/** How far ahead of a service's clock a token's issue time may be (clock skew between hosts). */
const CLOCK_SKEW_MS = 5_000;
/** Tokens remembered each side (signed or checked): a busy gateway serves a few thousand actors at once. */
const REMEMBERED_TOKENS = 10_000;
/** A token is a few hundred characters; anything much longer is refused before it is parsed. */
const MAX_TOKEN_LENGTH = 2_048;

/** What a token says, as signed: who acts, toward which service and method, from when until when, under which key. */
interface Claims {
  sub: string;
  role: string;
  aud: string;
  mth: string;
  iat: number;
  exp: number;
  kid: string;
}

/** Why a service refused a token: the label of grpc_actor_refused_total. */
export type RefusalReason = 'malformed' | 'unknown-key' | 'bad-signature' | 'expired' | 'audience' | 'method';

export type TokenCheck = { actor: Actor } | { refused: RefusalReason };

/** The message a signature covers: the payload's own bytes, under a label so that no other signed text can pass. */
const signedBytes = (payload: string) => Buffer.from(`actor-token:v1.${payload}`, 'utf8');

/** Keeps a map bounded: when full it starts over, which only costs the next calls a signature (or a check) each. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= REMEMBERED_TOKENS && !map.has(key)) map.clear();
  map.set(key, value);
}

/**
 * The gateway's side (the only holder of ACTOR_SIGNING_KEY): a token per actor, service and method, signed with
 * Ed25519, reused for REUSE_MS. A token is `base64url(claims JSON).base64url(signature)`.
 */
export class ActorSigner {
  readonly publicKey: PublicKey;
  private readonly privateKey: KeyObject;
  private readonly signed = new Map<string, { issuedAt: number; token: string }>();

  constructor(secret: string) {
    ({ privateKey: this.privateKey, publicKey: this.publicKey } = keyPairOf(secret));
  }

  sign(actor: Actor, target: CallTarget): string {
    const key = `${actor.userId}\n${actor.role}\n${target.audience}\n${target.path}`;
    const now = Date.now();
    const known = this.signed.get(key);
    if (known && now - known.issuedAt < REUSE_MS) return known.token;
    const claims: Claims = { sub: actor.userId, role: actor.role, aud: target.audience, mth: target.path, iat: now, exp: now + TOKEN_LIFETIME_MS, kid: this.publicKey.keyId };
    const payload = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
    const token = `${payload}.${sign(null, signedBytes(payload), this.privateKey).toString('base64url')}`;
    remember(this.signed, key, { issuedAt: now, token });
    return token;
  }
}

function signatureHolds(payload: string, signature: string, key: PublicKey): boolean {
  try {
    return verify(null, signedBytes(payload), key.key, Buffer.from(signature, 'base64url'));
  } catch {
    // A signature of the wrong length makes some versions of node:crypto throw rather than answer false.
    return false;
  }
}

const isClaims = (value: unknown): value is Claims => {
  const c = value as Partial<Claims> | null;
  return (
    typeof c === 'object' && c !== null &&
    [c.sub, c.role, c.aud, c.mth, c.kid].every((field) => typeof field === 'string' && field !== '') &&
    Number.isSafeInteger(c.iat) && Number.isSafeInteger(c.exp)
  );
};

/**
 * A service's side: it believes a token only if a key it trusts (ACTOR_TRUSTED_KEYS) signed it, for this service
 * and the method being called, and it is within its life. A token whose signature was checked once is remembered,
 * so that its next uses cost a map lookup; its audience, method and time are still checked on every call.
 */
export class ActorVerifier {
  private readonly trusted: Map<string, PublicKey>;
  private readonly checked = new Map<string, Claims>();

  constructor(
    /** The service's own name (libs/topology): the audience it accepts. */
    private readonly audience: string,
    trustedKeys: string,
  ) {
    this.trusted = new Map(listedKeys(trustedKeys).map((x) => publicKeyOf(x)).map((key) => [key.keyId, key]));
  }

  check(token: string, path: string): TokenCheck {
    const claims = this.checked.get(token) ?? this.signedClaims(token);
    if (typeof claims === 'string') return { refused: claims };
    const now = Date.now();
    if (claims.exp - claims.iat > TOKEN_LIFETIME_MS || claims.exp <= claims.iat) return { refused: 'malformed' };
    if (now >= claims.exp || claims.iat > now + CLOCK_SKEW_MS) return { refused: 'expired' };
    if (claims.aud !== this.audience) return { refused: 'audience' };
    if (claims.mth !== path) return { refused: 'method' };
    return { actor: { userId: claims.sub, role: claims.role } };
  }

  /** The claims of a token a trusted key signed (remembered), or why there are none. */
  private signedClaims(token: string): Claims | RefusalReason {
    const [payload, signature, ...rest] = token.length <= MAX_TOKEN_LENGTH ? token.split('.') : [];
    if (!payload || !signature || rest.length > 0) return 'malformed';
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return 'malformed';
    }
    if (!isClaims(claims)) return 'malformed';
    const key = this.trusted.get(claims.kid);
    if (!key) return 'unknown-key';
    if (!signatureHolds(payload, signature, key)) return 'bad-signature';
    remember(this.checked, token, claims);
    return claims;
  }
}

/**
 * The gateway acting for itself rather than for a user: what it asks of a service after its own commit (an account
 * mail). Signed like any actor, so only the gateway's key can claim it; `system` is no user's role.
 */
export const GATEWAY_ACTOR: Actor = { userId: 'gateway', role: 'system' };
