import { addressesOf } from '@libs/config';
import { auditV1, catalogueV1, financeV1, notificationsV1, referenceV1, schedulingV1 } from '@libs/contracts';
import { ActorSigner, createClient } from '@libs/grpc';
import type { Logger } from '@libs/logging';
import { GATEWAY_NAME, GRPC_SERVICE_NAMES, type GrpcServiceName } from '@libs/topology';
import type { PlatformConfig } from '../platform-config';
import { AnswerCache } from './answer-cache';
import { Upstream } from './upstream';

/** The client of each gRPC service (libs/topology): the type check fails until a declared service has its own. */
const CLIENTS = {
  reference: referenceV1.ReferenceServiceClient,
  finance: financeV1.FinanceServiceClient,
  audit: auditV1.AuditServiceClient,
  scheduling: schedulingV1.SchedulingServiceClient,
  notifications: notificationsV1.NotificationsServiceClient,
} satisfies Record<GrpcServiceName, Parameters<typeof createClient<object>>[0]>;

type ServiceUpstreams = { [N in GrpcServiceName]: Upstream<InstanceType<(typeof CLIENTS)[N]>> };

export interface Upstreams extends ServiceUpstreams {
  /** The reference service's catalogue (everything but diseases): same address, its own client. */
  catalogue: Upstream<catalogueV1.CatalogueServiceClient>;
}

export function connectUpstreams(config: PlatformConfig, logger: Logger): Upstreams {
  const actorSigner = new ActorSigner(config.ACTOR_SIGNING_KEY);
  // What the services list in ACTOR_TRUSTED_KEYS: public, so said where operators look.
  logger.info({ actorKey: actorSigner.publicKey.x, keyId: actorSigner.publicKey.keyId }, 'actor tokens are signed with this key');
  const options = {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    // The time a request has to arrive, then a call's time for the service to answer it.
    streamTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS + config.UPSTREAM_TIMEOUT_MS,
    resetMs: config.BREAKER_RESET_MS,
    actorSigner,
  };
  // Reference data reads the same for every role: no actor goes there, so no token can be captured there. It is
  // read-only between imports: one cache for both clients of the reference service.
  const referenceOptions = { ...options, actorSigner: null };
  const cached =
    config.REFERENCE_CACHE_TTL_MS > 0
      ? { ...referenceOptions, cache: new AnswerCache({
            ttlMs: config.REFERENCE_CACHE_TTL_MS,
            maxEntries: config.REFERENCE_CACHE_MAX,
            maxBytes: config.REFERENCE_CACHE_MAX_BYTES,
          }) }
      : referenceOptions;
  const addresses = addressesOf(GATEWAY_NAME, config);
  // A request's protobuf is at most about its JSON body's size (field names become one-byte tags): twice leaves a margin.
  const clientOptions = { largestRequestBytes: 2 * config.BODY_LIMIT_BYTES };
  const services = GRPC_SERVICE_NAMES.map((name) => [
    name,
    new Upstream(name, createClient<object>(CLIENTS[name], addresses[name], clientOptions), name === 'reference' ? cached : options, logger),
  ]);
  return {
    ...(Object.fromEntries(services) as ServiceUpstreams),
    catalogue: new Upstream('catalogue', createClient(catalogueV1.CatalogueServiceClient, addresses.reference, clientOptions), cached, logger),
  };
}

/** Every upstream: one per gRPC service, and the catalogue. */
export const allUpstreams = (upstreams: Upstreams): Upstream<object>[] => Object.values(upstreams);
