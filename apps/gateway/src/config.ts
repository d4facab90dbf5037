import { join } from 'node:path';
import { z } from 'zod';
import { commonFields, env, internalAuthFields, loadConfig, metricsFields } from '@libs/config';
import { emailField } from './identity/schemas';
import { corsOriginsField } from './platform/http/cors';
import { keyLimitFields } from './identity/limits/key-limits';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z
  .object({
    HOST: env.text('0.0.0.0'),
    PORT: env.port(3000),
    // /metrics has a port of its own, on loopback unless told otherwise: it needs no key, so it must stay internal.
    ...metricsFields(9467),
    METRICS_HOST: env.text('127.0.0.1'),
    ...commonFields('gateway'),
    ...internalAuthFields(),
    REFERENCE_ADDR: env.grpcTarget('127.0.0.1:50051'),
    FINANCE_ADDR: env.grpcTarget('127.0.0.1:50052'),
    AUDIT_ADDR: env.grpcTarget('127.0.0.1:50053'),
    SCHEDULING_ADDR: env.grpcTarget('127.0.0.1:50054'),
    UPSTREAM_TIMEOUT_MS: env.int(5_000, 50, 60_000),
    // How long an open breaker refuses calls before one trial call; chosen with tools/fault-timeline (docs/OPERATIONS.md).
    BREAKER_RESET_MS: env.int(1_000, 100, 600_000),
    BODY_LIMIT_BYTES: env.int(1_048_576, 1_024, 16_777_216),
    // Express's `trust proxy`: empty = the socket's peer is the client; a hop count or the proxies' addresses
    // (e.g. `loopback, 10.0.0.0/8`) make X-Forwarded-For name the client, as login throttling needs behind a balancer.
    TRUST_PROXY: env.text(''),
    // Origins whose pages may call the API from a browser (CORS); none by default.
    CORS_ALLOWED_ORIGINS: corsOriginsField,
    // How clients reach the gateway (`https://api.example.org`, maybe with a path prefix): absolute links such as
    // FHIR Bundle paging and the document's `servers` use it. Unset: the request's own origin (see TRUST_PROXY).
    PUBLIC_BASE_URL: env.optionalUrl(['http:', 'https:']).transform((url) => url?.replace(/\/+$/, '')),
    HTTP_REQUEST_TIMEOUT_MS: env.int(30_000, 1_000, 600_000),
    HTTP_HEADERS_TIMEOUT_MS: env.int(10_000, 500, 600_000),
    // Node's own default: room for a key, tracing and a proxy's headers, while a connection's headers stay small.
    HTTP_MAX_HEADER_BYTES: env.int(16_384, 1_024, 65_536),
    CHANGELOG_PATH: env.text(join(__dirname, 'CHANGELOG.md')),
    // At most 5 s: a key revoked on one instance must stop working on every other within 5 s.
    KEY_CACHE_TTL_MS: env.int(4_000, 100, 5_000),
    KEY_CACHE_MAX: env.int(10_000, 1, 1_000_000),
    // Reference answers served from memory for this long (0: off); an import shows through within it.
    REFERENCE_CACHE_TTL_MS: env.int(60_000, 0, 3_600_000),
    REFERENCE_CACHE_MAX: env.int(1_000, 1, 1_000_000),
    // Counted as JSON length; decoded answers take about three times that in the heap (128 MB in all).
    REFERENCE_CACHE_MAX_BYTES: env.int(8 * 1024 * 1024, 1_024, 1024 * 1024 * 1024),
    // Also how often the limits' shared counts are read back: instances may together overshoot a key's
    // rate by about (instances − 1) × rate × this interval (docs/IDENTITY.md), hence the upper bound.
    KEY_USAGE_FLUSH_MS: env.int(1_000, 100, 10_000),
    // RATE_LIMIT_<ROLE>, DAILY_QUOTA_<ROLE>, CONCURRENCY_LIMIT_<ROLE> for every role: the limits of keys without their own.
    ...keyLimitFields(),
    SESSION_TTL_MINUTES: env.int(720, 1, 10_080),
    BOOTSTRAP_ADMIN_EMAIL: emailField.optional(),
    // Checked when the admin is created (bootstrapAdmin), so that a bad value is never echoed into a log.
    BOOTSTRAP_ADMIN_PASSWORD: z.string().optional(),
  })
  .refine((config) => (config.BOOTSTRAP_ADMIN_EMAIL === undefined) === (config.BOOTSTRAP_ADMIN_PASSWORD === undefined), {
    message: 'set both BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD, or neither',
    path: ['BOOTSTRAP_ADMIN_EMAIL'],
  });

export type GatewayConfig = z.infer<typeof configSchema>;

export const readConfig = (): GatewayConfig => loadConfig('gateway', configSchema);
