import { z } from 'zod';
import { env } from './env-fields';
import { isTrustedKeyEntry, keyPairOf, listedKeys, trustedKeyEntry } from '@libs/signing';

/**
 * Variables every service reads: its database (the declared one by default: declared-fields.ts), logging and
 * shutdown grace. Each variable's description is what the README's configuration table says of it
 * (`npm run docs:config`).
 */
export const commonFields = (database: string) => ({
  DATABASE_URL: env.url(`postgres://postgres@127.0.0.1:5432/${database}`, ['postgres:', 'postgresql:']).describe(
    "the service's own database; created if missing",
  ),
  DB_POOL_MAX: env.int(10, 1, 200).describe('connection pool size'),
  // Shorter than the gateway's UPSTREAM_TIMEOUT_MS (5 s), so that a call starved of connections is answered
  // UNAVAILABLE (503, and a read is retried) before its caller gives up on it (504).
  DB_POOL_ACQUIRE_TIMEOUT_MS: env
    .int(3_000, 100, 60_000)
    .describe(
      "how long a call waits for a free pooled connection before it is answered `UNAVAILABLE` (`503`); keep it under the gateway's `UPSTREAM_TIMEOUT_MS`",
    ),
  LOG_LEVEL: env.logLevel().describe('pino level: fatal, error, warn, info, debug, trace, silent'),
  SHUTDOWN_GRACE_MS: env.int(8_000, 0, 60_000).describe('time to drain calls in flight on SIGTERM (the process exits within 10 s regardless)'),
  // The standard OpenTelemetry variable.
  OTEL_EXPORTER_OTLP_ENDPOINT: env
    .optionalUrl(['http:', 'https:'])
    .describe(
      'OpenTelemetry collector base URL (OTLP/HTTP, e.g. `http://127.0.0.1:4318`); unset, spans are not exported. Trace ids propagate either way',
    ),
  // Read where a default depends on it (env.secret, env.devOnly); listed so that it is documented with the rest.
  NODE_ENV: z.string().optional().describe('`production` turns off demo conveniences and requires secrets of your own (so does any bind address that is not loopback)'),
});

/** The parsed values of commonFields, which every service's configuration holds. */
export type CommonConfig = z.infer<z.ZodObject<ReturnType<typeof commonFields>>>;

/**
 * The development secret the gateway's actor key is derived from. It is public (it is in this repository): refused
 * in production and off loopback, and so is its public half where a service trusts it (load-config.ts).
 */
export const DEVELOPMENT_ACTOR_SIGNING_KEY = 'dev-only-actor-signing-key';

/** The gateway's private key for actor tokens (libs/grpc actor-token.ts): only the gateway holds it. */
export const actorSigningFields = () => ({
  ACTOR_SIGNING_KEY: env
    .secret(DEVELOPMENT_ACTOR_SIGNING_KEY)
    .describe(
      "the secret the gateway's Ed25519 actor key is derived from (32 random bytes, base64: `openssl rand -base64 32`); it signs the acting user of each gRPC call for one service and one method, for 30 s. The gateway logs the public half at start (`actorKey`): list it in the services' `ACTOR_TRUSTED_KEYS`",
    ),
});

/** The public keys a service believes actor tokens from: the gateway's, and during a rotation its next or last one. */
export const actorTrustFields = () => ({
  ACTOR_TRUSTED_KEYS: env
    .trustedKeys(keyPairOf(DEVELOPMENT_ACTOR_SIGNING_KEY).publicKey.x)
    .describe(
      "the gateway's actor public keys this service believes, comma-separated `x` values (base64url, the `actorKey` the gateway logs at start); list the new key before the gateway signs with it. The development key is refused in production and whenever a bind address is not loopback",
    ),
});

/** The key that signs a service's pagination cursors. */
export const cursorSecretField = (devFallback: string) =>
  env
    .secret(devFallback)
    .describe("HMAC key that signs pagination cursors (and scheduling's slot tokens); ≥ 16 characters; the development value is refused in production and whenever a bind address is not loopback");

/** Whether a service creates its demo records at start. */
export const seedDemoDataField = () =>
  env
    .devOnly()
    .describe(
      "create the demo records with fixed ids: finance's account, categories and the demo student's records; scheduling's sample locations, resources, services and hours ([docs/SCHEDULING.md](docs/SCHEDULING.md#default-data))",
    );

/** Variables of a service that talks to RabbitMQ. */
export const busFields = () => ({
  AMQP_URL: env.url('amqp://guest:guest@127.0.0.1:5672', ['amqp:', 'amqps:']).describe('RabbitMQ'),
  AMQP_NAMESPACE: env.text('').describe('prefix for every exchange and queue name (tests use it to stay apart)'),
});

/** Where a service serves Prometheus metrics over HTTP; METRICS_PORT=0 turns the endpoint off. */
export const metricsFields = (defaultPort: number) => ({
  METRICS_PORT: env
    .port(defaultPort)
    .describe("HTTP port of `GET /metrics` (Prometheus); `0` turns it off. The gateway's public port has no `/metrics`"),
  // Its own host, on loopback unless told otherwise: /metrics needs no key, so it must stay internal whatever the
  // service's own port is bound to.
  METRICS_HOST: env
    .listenHost('127.0.0.1')
    .describe('bind address of the metrics port; `0.0.0.0` only on a private network where the scraper runs (compose and the Kubernetes base do)'),
});

/** The development signing secret of a producer's events: public, so refused wherever a secret is needed. */
const developmentEventSecret = (producer: string) => `dev-only-${producer}-event-signing-secret`;

/** The key with which a service signs every event it publishes (libs/signing EventSigner). */
const eventSigningFields = (producer: string) => ({
  EVENT_SIGNING_SECRET: env
    .secret(developmentEventSecret(producer))
    .describe(
      "the secret this service's Ed25519 event-signing key is derived from (32 random bytes, base64: `openssl rand -base64 32`); the audit and notifications services must list its public key in `EVENT_TRUSTED_KEYS`, as the service logs it at start (`trustedAs`; docs/AUDIT.md, \"Signed events\"). The development value is refused in production and whenever a bind address is not loopback",
    ),
});

/** Variables of a service that publishes its changes (as `producer`: its stream) through a transactional outbox (libs/outbox). */
export const outboxFields = (producer: string) => ({
  ...eventSigningFields(producer),
  OUTBOX_BATCH_SIZE: env.int(200, 1, 5_000).describe('outbox rows claimed per relay pass'),
  OUTBOX_POLL_MS: env.int(250, 10, 60_000).describe('relay poll interval when idle (commits also wake it at once)'),
  OUTBOX_LEASE_MS: env.int(30_000, 1_000, 600_000).describe('how long a relay owns claimed rows before another may take them'),
  OUTBOX_RELAY_ENABLED: env
    .bool(true)
    .describe(
      'run the outbox relay (with pruning and the audit queue watch) in this instance; `false` for instances that only serve calls',
    ),
  OUTBOX_RETENTION_HOURS: env.int(168, 0, 87_600).describe('published outbox rows older than this are deleted (every 5 minutes)'),
  OUTBOX_QUEUE_CHECK_MS: env
    .int(2_000, 100, 60_000)
    .describe(
      'how often a relaying instance looks whether a consumer queue (audit or notifications) was deleted; a deletion puts the events it may have destroyed back in the outbox (docs/AUDIT.md)',
    ),
});

/**
 * The producers' public keys a consuming service believes events from. Outside production it trusts the keys of the
 * producers' development secrets, which `npm start` and the test system replace with keys generated at their start;
 * those development keys are refused, even among others, where development secrets are (load-config.ts).
 */
export const eventTrustFields = (producers: readonly string[]) => {
  const entriesOf = (secretOf: (producer: string) => string) => producers.map((producer) => trustedKeyEntry(producer, keyPairOf(secretOf(producer)).publicKey));
  const developmentEntries = entriesOf(developmentEventSecret);
  const developmentValue = developmentEntries.join(',');
  // What a value looks like, for a check that needs one that is not a development value.
  const example = entriesOf((producer) => `an example ${producer} event-signing secret`).join(',');
  const trusted = z
    .string({ message: 'must be set in production' })
    .refine((text) => listedKeys(text).length > 0 && listedKeys(text).every(isTrustedKeyEntry), 'must be comma-separated `<producer>:<public key>` entries, each key 43 base64url characters');
  return {
    EVENT_TRUSTED_KEYS: (process.env.NODE_ENV === 'production' ? trusted : trusted.default(developmentValue))
      .meta({ shownDefault: "the development secrets' keys", developmentValue, developmentEntries, examples: [example] })
      .describe(
        `the public keys whose events this service believes, each as \`<producer>:<key>\` (producers: ${producers.map((p) => `\`${p}\``).join(', ')}); several for one producer while its key rotates. An event signed otherwise, or claiming an action of another producer, is dead-lettered and counted (docs/AUDIT.md, "Signed events")`,
      ),
  };
};
