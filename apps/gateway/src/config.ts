import { join } from 'node:path';
import { z } from 'zod';
import { busFields, env, gatewayFields, actorSigningFields, loadConfig, outboxFields } from '@libs/config';
import { emailField } from './identity/schemas';
import { corsOriginsField } from './platform/http/cors';
import { keyLimitFields } from './identity/limits/key-limits';

const BOOTSTRAP_ADMIN = 'the first admin, created at start if no account has that email (set both or neither)';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z
  .object({
    HOST: env.listenHost('127.0.0.1').describe('HTTP bind address; `0.0.0.0` to serve other machines (compose and the Kubernetes base do), which needs secrets of your own'),
    // Its ports, database and the address of every gRPC service (<NAME>_ADDR), by default the declared ones.
    ...gatewayFields(),
    ...actorSigningFields(),
    // The identity area publishes identity.events through its outbox, as finance and scheduling publish theirs.
    ...busFields(),
    ...outboxFields('identity'),
    ACCOUNT_MAIL_POLL_MS: env
      .int(1_000, 10, 60_000)
      .describe(
        'how often each instance looks for account mails (verification, reset) not yet handed to the notifications service; a commit that stores one hands it at once, and a failed hand-over is tried again after 1 s, doubling up to a minute',
      ),
    UPSTREAM_TIMEOUT_MS: env.int(5_000, 50, 60_000).describe('deadline of every gRPC call'),
    // Chosen with tools/fault-timeline (docs/OPERATIONS.md).
    BREAKER_RESET_MS: env
      .int(1_000, 100, 600_000)
      .describe(
        'how long an open circuit breaker (opened by calls that ran into their deadline) refuses calls before one trial call; also the `Retry-After` of every `503` ([docs/OPERATIONS.md](docs/OPERATIONS.md))',
      ),
    BODY_LIMIT_BYTES: env.int(1_048_576, 1_024, 16_777_216).describe('largest JSON body accepted; larger → 413'),
    // Express's `trust proxy`: empty = the socket's peer is the client; a hop count or the proxies' addresses
    // make X-Forwarded-For name the client, as login throttling needs behind a balancer.
    TRUST_PROXY: env
      .text('')
      .describe(
        "Express `trust proxy`: a hop count or the load balancers' addresses (`loopback, 10.0.0.0/8`), so that login throttling counts per client behind a balancer; empty trusts no proxy",
      ),
    CORS_ALLOWED_ORIGINS: corsOriginsField.describe(
      'comma-separated origins (`https://app.example.org,http://localhost:5173`) whose pages may call the API from a browser: preflights are answered and cached for 2 h, and `ETag`, `X-Request-Id`, `X-Client-Request-Id`, `RateLimit*`, `Retry-After`, `Location` and `Idempotent-Replayed` are exposed; no credentials mode (keys travel in `Authorization`). Other origins get no CORS headers; empty, none may',
    ),
    // Absolute links such as FHIR Bundle paging and the document's `servers` use it.
    PUBLIC_BASE_URL: env
      .optionalUrl(['http:', 'https:'])
      .transform((url) => url?.replace(/\/+$/, ''))
      .describe(
        "how clients reach the gateway (`https://api.example.org`, maybe with a path prefix): FHIR Bundle links and the CapabilityStatement use it; unset → the request's own origin (see `TRUST_PROXY`)",
      ),
    HTTP_REQUEST_TIMEOUT_MS: env
      .int(30_000, 1_000, 600_000)
      .describe('time allowed for a whole request (headers and body) to arrive; slower → 408'),
    HTTP_HEADERS_TIMEOUT_MS: env.int(10_000, 500, 600_000).describe("time allowed for a request's headers to arrive; slower → 408"),
    // Node's own default: room for a key, tracing and a proxy's headers, while a connection's headers stay small.
    HTTP_MAX_HEADER_BYTES: env
      .int(16_384, 1_024, 65_536)
      .describe("largest request line and headers together (Node's own default); larger → 431"),
    CHANGELOG_PATH: env.text(join(__dirname, 'CHANGELOG.md')).meta({
      shownDefault: '`CHANGELOG.md` beside the built gateway',
      description: 'the changelog served at `/api/v1/changelog` (copied there by the build)',
    }),
    // At most 5 s: a key revoked on one instance must stop working on every other within 5 s.
    KEY_CACHE_TTL_MS: env
      .int(4_000, 100, 5_000)
      .describe('how long a verified API key is trusted without the database; revocations also reach every instance at once by PostgreSQL NOTIFY'),
    KEY_CACHE_MAX: env.int(10_000, 1, 1_000_000).describe('verified keys kept in memory'),
    REFERENCE_CACHE_TTL_MS: env
      .int(60_000, 0, 3_600_000)
      .describe(
        'how long a reference answer is served from memory (0 turns the cache off): an import shows through within it ([docs/PERFORMANCE.md](docs/PERFORMANCE.md))',
      ),
    REFERENCE_CACHE_MAX: env.int(1_000, 1, 1_000_000).describe('reference answers kept in memory'),
    // Decoded answers take about three times their JSON length in the heap (128 MB in all).
    REFERENCE_CACHE_MAX_BYTES: env
      .int(8 * 1024 * 1024, 1_024, 1024 * 1024 * 1024)
      .describe(
        "the reference answers' total size, each counted as its JSON length (they take about three times that in the heap); the least recently used go first",
      ),
    // Also how often the limits' shared counts are read back: instances may together overshoot a key's
    // rate by about (instances − 1) × rate × this interval (docs/IDENTITY.md), hence the upper bound.
    KEY_USAGE_FLUSH_MS: env
      .int(1_000, 100, 10_000)
      .describe(
        "how often each instance writes the requests it admitted per key (last used, requests, the limits' counts) and reads back every instance's counts; the limits' overshoot across instances grows with it ([docs/IDENTITY.md](docs/IDENTITY.md#limits-per-key))",
      ),
    // RATE_LIMIT_<ROLE>, DAILY_QUOTA_<ROLE>, CONCURRENCY_LIMIT_<ROLE> for every role: the limits of keys without their own.
    ...keyLimitFields(),
    INSTITUTION_NAME: env
      .text('University Bursary')
      .describe('the institution that finance documents (statement and receipt PDFs) name in their heading'),
    SESSION_TTL_MINUTES: env.int(720, 1, 10_080).describe('lifetime of a dashboard sign-in'),
    BOOTSTRAP_ADMIN_EMAIL: emailField.optional().describe(BOOTSTRAP_ADMIN),
    // Checked when the admin is created (bootstrapAdmin), so that a bad value is never echoed into a log.
    BOOTSTRAP_ADMIN_PASSWORD: z.string().optional().describe(BOOTSTRAP_ADMIN),
  })
  .refine((config) => (config.BOOTSTRAP_ADMIN_EMAIL === undefined) === (config.BOOTSTRAP_ADMIN_PASSWORD === undefined), {
    message: 'set both BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD, or neither',
    path: ['BOOTSTRAP_ADMIN_EMAIL'],
  });

export type GatewayConfig = z.infer<typeof configSchema>;

export const readConfig = (): GatewayConfig => loadConfig('gateway', configSchema);
