import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a signature stays good: calls carry a deadline of seconds; this allows for clock skew between hosts. */
const MAX_AGE_MS = 5 * 60_000;
/**
 * How long the gateway reuses one signature for the same actor: an HMAC per call was a measurable share of its
 * CPU on a forwarded GET (the bench's `exact search` with --profile). Far inside MAX_AGE_MS, so a reused signature is always fresh where it is checked.
 */
const REUSE_MS = 10_000;
/** Actors whose latest signature is kept (each side): a busy gateway serves a few thousand keys at once. */
const REMEMBERED_ACTORS = 10_000;

/** The user a call acts for: whom the gateway vouches for, and whom a service checks a role of. */
export interface Actor {
  userId: string;
  role: string;
}

const actorKey = (actor: Actor) => `${actor.userId}\n${actor.role}`;

/**
 * The gateway vouches for the acting user of each call with an HMAC over the
 * user, the role and the time, under a secret it shares with the services
 * (INTERNAL_AUTH_SECRET). A service believes an actor only with a fresh, valid
 * signature, so reaching a gRPC port is not enough to act as anyone.
 *
 * Both sides remember each actor's latest signature: the gateway reuses it for
 * REUSE_MS, and a service that has checked it once compares the next copies
 * with the one it checked instead of computing the HMAC again (the age is
 * still checked on every call, and the comparison stays constant-time).
 */
export class ActorSigner {
  private readonly signed = new Map<string, { issuedAt: string; signature: string }>();
  private readonly verified = new Map<string, { issuedAt: string; mac: Buffer }>();

  constructor(private readonly secret: string) {}

  private mac(actor: Actor, issuedAt: string): Buffer {
    return createHmac('sha256', this.secret).update(`${actor.userId}\n${actor.role}\n${issuedAt}`).digest();
  }

  sign(actor: Actor): { issuedAt: string; signature: string } {
    const key = actorKey(actor);
    const now = Date.now();
    const known = this.signed.get(key);
    if (known && now - Number(known.issuedAt) < REUSE_MS) return known;
    const issuedAt = String(now);
    const fresh = { issuedAt, signature: this.mac(actor, issuedAt).toString('base64url') };
    remember(this.signed, key, fresh);
    return fresh;
  }

  verify(actor: Actor, issuedAt: string, signature: string): boolean {
    const age = Date.now() - Number(issuedAt);
    if (!/^\d{1,15}$/.test(issuedAt) || Math.abs(age) > MAX_AGE_MS) return false;
    const key = actorKey(actor);
    const known = this.verified.get(key);
    const expected = known?.issuedAt === issuedAt ? known.mac : this.mac(actor, issuedAt);
    const given = Buffer.from(signature, 'base64url');
    // Compared in constant time even against a remembered signature: its bytes must not leak by timing.
    const valid = given.length === expected.length && timingSafeEqual(given, expected);
    if (valid && known?.mac !== expected) remember(this.verified, key, { issuedAt, mac: expected });
    return valid;
  }
}

/** Keeps the map bounded: when full it starts over, which only costs the next calls an HMAC each. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= REMEMBERED_ACTORS && !map.has(key)) map.clear();
  map.set(key, value);
}

/**
 * The gateway acting for itself rather than for a user: what it asks of a service after its own commit (an account
 * mail). Signed like any actor, so only a holder of INTERNAL_AUTH_SECRET can claim it; `system` is no user's role.
 */
export const GATEWAY_ACTOR: Actor = { userId: 'gateway', role: 'system' };
