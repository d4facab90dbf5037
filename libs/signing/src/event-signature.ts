import { createHash, sign, verify } from 'node:crypto';
import { isPublicKeyText, keyPairOf, listedKeys, publicKeyOf, type KeyPair, type PublicKey } from './ed25519';

/** The AMQP headers that carry an event's signature: the signing key's id and the Ed25519 signature (base64url). */
export const SIGNATURE_HEADERS = { keyId: 'x-signature-key', signature: 'x-signature' } as const;

/** What of a message a signature covers besides its producer and key: where it is routed, its id, its exact bytes. */
export interface SignedParts {
  routingKey: string;
  messageId: string;
  body: Buffer;
}

/**
 * One line naming everything a consumer acts on, so that no part can be swapped for another message's: the
 * producer (a key proves only the producer it is trusted for), the key, the routing key, the message id and the
 * SHA-256 of the body as sent (the JSON is never re-serialised, so its bytes are what is checked).
 */
const signedText = (producer: string, keyId: string, parts: SignedParts) =>
  Buffer.from(
    `event:v1:${producer}:${keyId}:${parts.routingKey}:${parts.messageId}:${createHash('sha256').update(parts.body).digest('base64url')}`,
    'utf8',
  );

/** A producer's signing key (EVENT_SIGNING_SECRET), which signs every event it publishes. */
export class EventSigner {
  private readonly pair: KeyPair;

  constructor(
    readonly producer: string,
    secret: string,
  ) {
    this.pair = keyPairOf(secret);
  }

  get publicKey(): PublicKey {
    return this.pair.publicKey;
  }

  /** The headers that sign a message, to be sent with it unchanged. */
  headers(parts: SignedParts): Record<string, string> {
    const { keyId } = this.pair.publicKey;
    return {
      [SIGNATURE_HEADERS.keyId]: keyId,
      [SIGNATURE_HEADERS.signature]: sign(null, signedText(this.producer, keyId, parts), this.pair.privateKey).toString('base64url'),
    };
  }
}

/** Why a consumer refused a message: the label of its `<service>_events_refused_total`. */
export type EventRefusal = 'unsigned' | 'unknown_key' | 'bad_signature' | 'wrong_producer';

const verifies = (text: Buffer, key: PublicKey, signature: string) => {
  try {
    return verify(null, text, key.key, Buffer.from(signature, 'base64url'));
  } catch {
    // A signature of the wrong length: anyone who can publish can send anything.
    return false;
  }
};

/** One entry of EVENT_TRUSTED_KEYS: `<producer>:<public key, base64url>`. */
export const isTrustedKeyEntry = (entry: string) => {
  const [producer, x, ...rest] = entry.split(':');
  return /^[a-z]+$/.test(producer) && x !== undefined && isPublicKeyText(x) && rest.length === 0;
};

/** The EVENT_TRUSTED_KEYS entry of a producer's key. */
export const trustedKeyEntry = (producer: string, key: PublicKey) => `${producer}:${key.x}`;

/**
 * The public keys a consumer trusts (EVENT_TRUSTED_KEYS), each for one producer. A producer may have several: during
 * a rotation its current key and the one before, so that events signed before it and still in a queue verify.
 */
export class TrustedEventKeys {
  private readonly byId = new Map<string, { producer: string; key: PublicKey }>();

  constructor(list: string) {
    for (const entry of listedKeys(list)) {
      const [producer, x] = entry.split(':');
      const key = publicKeyOf(x);
      this.byId.set(key.keyId, { producer, key });
    }
  }

  /**
   * Why a message that reached a consumer through `stream`'s queue cannot have come from that stream's producer, or
   * undefined when its signature is good and made by a key trusted for that producer.
   */
  refusalOf(stream: string, parts: SignedParts, headers: Record<string, unknown> | undefined): EventRefusal | undefined {
    const keyId = headers?.[SIGNATURE_HEADERS.keyId];
    const signature = headers?.[SIGNATURE_HEADERS.signature];
    if (typeof keyId !== 'string' || typeof signature !== 'string') return 'unsigned';
    const trusted = this.byId.get(keyId);
    if (!trusted) return 'unknown_key';
    if (!verifies(signedText(trusted.producer, keyId, parts), trusted.key, signature)) return 'bad_signature';
    return trusted.producer === stream ? undefined : 'wrong_producer';
  }
}
