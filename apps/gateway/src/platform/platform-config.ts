import type { GrpcServiceName } from '@libs/topology';

/**
 * What platform/ reads of the gateway's configuration, declared here so that platform/ depends on no area: the
 * composition root passes the gateway's own configuration (config.ts, which also reads identity's variables), and
 * that has these among the rest.
 */
export type PlatformConfig = {
  /** Where each gRPC service answers (`REFERENCE_ADDR`, …). */
  readonly [name in GrpcServiceName as `${Uppercase<name>}_ADDR`]: string;
} & {
  readonly ACTOR_SIGNING_KEY: string;
  readonly UPSTREAM_TIMEOUT_MS: number;
  /** How long a whole request may take to arrive; with UPSTREAM_TIMEOUT_MS, the deadline of a streamed upload or download. */
  readonly HTTP_REQUEST_TIMEOUT_MS: number;
  readonly BREAKER_RESET_MS: number;
  /** The largest JSON body read: what bounds the request of a call made for it. */
  readonly BODY_LIMIT_BYTES: number;
  readonly REFERENCE_CACHE_TTL_MS: number;
  readonly REFERENCE_CACHE_MAX: number;
  readonly REFERENCE_CACHE_MAX_BYTES: number;
  readonly PUBLIC_BASE_URL?: string;
};
