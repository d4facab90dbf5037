/**
 * `ACTOR_SIGNING_KEY=… node dist/apps/gateway/cli/actor-key.cjs`: prints the public half of the gateway's actor key,
 * the value the services list in ACTOR_TRUSTED_KEYS, so that they can be configured before the gateway first starts
 * (the gateway logs the same value at start, as `actorKey`).
 */
import { z } from 'zod';
import { actorSigningFields, loadConfig } from '@libs/config';
import { ActorSigner } from '@libs/grpc';

const { ACTOR_SIGNING_KEY } = loadConfig('actor-key', z.object(actorSigningFields()));
process.stdout.write(`${new ActorSigner(ACTOR_SIGNING_KEY).publicKey.x}\n`);
