import { auditV1, catalogueV1, financeV1, referenceV1, schedulingV1 } from '@libs/contracts';
import { ActorSigner, createClient } from '@libs/grpc';
import type { Logger } from '@libs/logging';
import type { PlatformConfig } from '../platform-config';
import { AnswerCache } from './answer-cache';
import { Upstream } from './upstream';

export interface Upstreams {
  reference: Upstream<referenceV1.ReferenceServiceClient>;
  /** The reference service's catalogue (everything but diseases): same address, its own client. */
  catalogue: Upstream<catalogueV1.CatalogueServiceClient>;
  finance: Upstream<financeV1.FinanceServiceClient>;
  audit: Upstream<auditV1.AuditServiceClient>;
  scheduling: Upstream<schedulingV1.SchedulingServiceClient>;
}

export function connectUpstreams(config: PlatformConfig, logger: Logger): Upstreams {
  const options = {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    resetMs: config.BREAKER_RESET_MS,
    actorSigner: new ActorSigner(config.INTERNAL_AUTH_SECRET),
  };
  // Reference data is read-only between imports: one cache for both clients of the reference service.
  const cached =
    config.REFERENCE_CACHE_TTL_MS > 0
      ? { ...options, cache: new AnswerCache({
            ttlMs: config.REFERENCE_CACHE_TTL_MS,
            maxEntries: config.REFERENCE_CACHE_MAX,
            maxBytes: config.REFERENCE_CACHE_MAX_BYTES,
          }) }
      : options;
  return {
    reference: new Upstream('reference', createClient(referenceV1.ReferenceServiceClient, config.REFERENCE_ADDR), cached, logger),
    catalogue: new Upstream('catalogue', createClient(catalogueV1.CatalogueServiceClient, config.REFERENCE_ADDR), cached, logger),
    finance: new Upstream('finance', createClient(financeV1.FinanceServiceClient, config.FINANCE_ADDR), options, logger),
    audit: new Upstream('audit', createClient(auditV1.AuditServiceClient, config.AUDIT_ADDR), options, logger),
    scheduling: new Upstream('scheduling', createClient(schedulingV1.SchedulingServiceClient, config.SCHEDULING_ADDR), options, logger),
  };
}

export const allUpstreams = (upstreams: Upstreams) => [
  upstreams.reference,
  upstreams.catalogue,
  upstreams.finance,
  upstreams.audit,
  upstreams.scheduling,
];
