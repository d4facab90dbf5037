export { isPublicKeyText, keyPairOf, listedKeys, publicKeyOf, type KeyPair, type PublicKey } from './ed25519';
export {
  EventSigner,
  isTrustedKeyEntry,
  SIGNATURE_HEADERS,
  trustedKeyEntry,
  TrustedEventKeys,
  type EventRefusal,
  type SignedParts,
} from './event-signature';
