import { randomBytes } from 'node:crypto';
import { EventSigner, trustedKeyEntry } from '@libs/signing';
import { EVENT_CONSUMERS, EVENT_PRODUCERS, EVENT_STREAMS, type EventStream } from './topology';

/** A signing secret for each stream's producer. */
export type EventSecrets = Readonly<Record<EventStream, string>>;

/** New random secrets, one per producer: what `npm start` and the test system give the services of one run. */
export const generateEventSecrets = (): EventSecrets =>
  Object.fromEntries(EVENT_STREAMS.map((stream) => [stream, randomBytes(32).toString('base64')])) as Record<EventStream, string>;

/** The EVENT_TRUSTED_KEYS that trusts each producer's key of `secrets`. */
export const trustedKeysOf = (secrets: EventSecrets): string =>
  EVENT_STREAMS.map((stream) => trustedKeyEntry(stream, new EventSigner(stream, secrets[stream]).publicKey)).join(',');

/** The variables that give a service its part of `secrets`: a producer its own secret, a consumer every public key. */
export function eventKeyEnv(secrets: EventSecrets, service: string): Record<string, string> {
  const produced = EVENT_STREAMS.find((stream) => EVENT_PRODUCERS[stream] === service);
  return {
    ...(produced && { EVENT_SIGNING_SECRET: secrets[produced] }),
    ...((EVENT_CONSUMERS as readonly string[]).includes(service) && { EVENT_TRUSTED_KEYS: trustedKeysOf(secrets) }),
  };
}
