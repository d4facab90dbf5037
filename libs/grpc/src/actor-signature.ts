import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Actor } from './handler';

/** How long a signature stays good: calls carry a deadline of seconds; this allows for clock skew between hosts. */
const MAX_AGE_MS = 5 * 60_000;

/**
 * The gateway vouches for the acting user of each call with an HMAC over the
 * user, the role and the time, under a secret it shares with the services
 * (INTERNAL_AUTH_SECRET). A service believes an actor only with a fresh, valid
 * signature, so reaching a gRPC port is not enough to act as anyone.
 */
export class ActorSigner {
  constructor(private readonly secret: string) {}

  private mac(actor: Actor, issuedAt: string): Buffer {
    return createHmac('sha256', this.secret).update(`${actor.userId}\n${actor.role}\n${issuedAt}`).digest();
  }

  sign(actor: Actor): { issuedAt: string; signature: string } {
    const issuedAt = String(Date.now());
    return { issuedAt, signature: this.mac(actor, issuedAt).toString('base64url') };
  }

  verify(actor: Actor, issuedAt: string, signature: string): boolean {
    const age = Date.now() - Number(issuedAt);
    if (!/^\d{1,15}$/.test(issuedAt) || Math.abs(age) > MAX_AGE_MS) return false;
    const expected = this.mac(actor, issuedAt);
    const given = Buffer.from(signature, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
