import { createHmac, timingSafeEqual } from 'node:crypto';
import { isSwitchable, type SwitchableCategory } from './templates/catalogue';

/**
 * The token of a one-click unsubscribe link (RFC 8058): the user and the category, and an HMAC of both under
 * UNSUBSCRIBE_SECRET, so the link works without a key and nobody can make one for another user. It does not expire:
 * an old mail's link must still work.
 */
export class UnsubscribeTokens {
  constructor(private readonly secret: string) {}

  private mac(userId: string, category: string): Buffer {
    return createHmac('sha256', this.secret).update(`unsubscribe\n${userId}\n${category}`).digest();
  }

  sign(userId: string, category: SwitchableCategory): string {
    return `${Buffer.from(userId).toString('base64url')}.${category}.${this.mac(userId, category).toString('base64url')}`;
  }

  /** The user and category a token names, or undefined for any token this service did not sign. */
  verify(token: string): { userId: string; category: SwitchableCategory } | undefined {
    const [encodedUser, category, signature, ...rest] = token.split('.');
    if (rest.length > 0 || !encodedUser || !category || !signature || !isSwitchable(category)) return undefined;
    const userId = Buffer.from(encodedUser, 'base64url').toString();
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(userId, category);
    return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, category } : undefined;
  }
}
