import { DEVELOPMENT_ACTOR_SIGNING_KEY } from '@libs/config';
import { ActorSigner, pathOf, type ActingFor, type Actor } from '@libs/grpc';

/** The gateway's key as startSystem's services trust it by default (ACTOR_TRUSTED_KEYS unset: the development key). */
const gatewayKey = new ActorSigner(DEVELOPMENT_ACTOR_SIGNING_KEY);

/**
 * What a test calling a service directly sends in the gateway's place: a token for `actor`, toward `audience` and
 * `method` (a generated client's method, which carries its path) alone.
 */
export const actingAs = (actor: Actor, audience: string, method: unknown): ActingFor => ({ actor, signer: gatewayKey, target: { audience, path: pathOf(method) } });
