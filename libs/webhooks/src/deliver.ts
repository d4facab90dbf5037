/**
 * One delivery attempt, start to finish: check and resolve the destination, sign, POST, classify the answer. The
 * service that claims deliveries calls this and records the outcome; nothing here touches a database or a queue.
 */
import type { AddressPolicy } from './address-policy';
import { resolveDestination, systemResolver, type Resolver } from './destination';
import { exchange, type ExchangeFailure } from './exchange';
import { signatureHeaders } from './signature';
import type { DestinationRule } from './url-policy';

export const DELIVERY_LIMITS = {
  /** The whole attempt: resolving, connecting, sending and reading the answer. */
  timeoutMs: 10_000,
  /** The most of an answer read; the rest is not waited for, and the connection is closed. */
  maxResponseBytes: 64 * 1024,
  /** The start of the answer kept for the deliveries log. */
  excerptBytes: 1024,
} as const;

/** Names the sender, so a receiver's logs and firewall can tell deliveries apart. */
export const WEBHOOK_USER_AGENT = 'clinical-finance-webhooks/1';

export interface DeliveryRequest {
  /** The endpoint's URL as saved. */
  url: string;
  /** The event's id: `webhook-id`, the same on every attempt, so receivers can deduplicate. */
  id: string;
  /** The JSON payload exactly as it is signed and sent. */
  body: string;
  /** Every current secret of the endpoint: two during a rotation, each giving a signature. */
  secrets: readonly string[];
}

export interface DeliveryOptions {
  policy: AddressPolicy;
  /** Defaults to the system's resolver. */
  resolve?: Resolver;
  /** Defaults to DELIVERY_LIMITS.timeoutMs. */
  timeoutMs?: number;
  /** An extra certificate authority to trust (an intranet's own). */
  ca?: string | Buffer;
}

export type DeliveryFailure = ExchangeFailure | 'dns' | 'refused-url' | 'refused-address';

interface Timing {
  startedAt: Date;
  durationMs: number;
}

/** What one attempt came to; the deliveries log keeps it with the attempt's timing. */
export type AttemptResult =
  | {
      /** `delivered` on 2xx; `gone` on 410, when the endpoint is to be disabled; `retry` on any other status. */
      result: 'delivered' | 'gone' | 'retry';
      status: number;
      /** The checked address the connection went to. */
      address: string;
      /** The start of the answer (NUL bytes replaced, so PostgreSQL text takes it). */
      excerpt: string;
      /** Whether more of the answer was left unread (too large, or cut by the deadline). */
      truncated: boolean;
    }
  | {
      result: 'retry';
      failure: DeliveryFailure;
      /** The error code, or what was refused. */
      detail: string;
      /** For a refusal: the rule broken, and the address that broke it when the URL named a host. */
      rule?: DestinationRule;
      address?: string;
    };

export type DeliveryOutcome = Timing & AttemptResult;

const resultOf = (status: number) => (status >= 200 && status < 300 ? 'delivered' : status === 410 ? 'gone' : 'retry');

/** Settles with `undefined` once the signal aborts, so an answer the deadline outran is never waited for. */
function beforeAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  return new Promise((settle, fail) => {
    signal.addEventListener('abort', () => settle(undefined), { once: true });
    work.then(settle, fail);
  });
}

/**
 * One attempt. Never throws for a network condition or a refused destination: each is an outcome to record and
 * retry. A malformed stored secret (InvalidSecretError) is a bug of the caller's data, and throws.
 */
export async function deliver(request: DeliveryRequest, options: DeliveryOptions): Promise<DeliveryOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? DELIVERY_LIMITS.timeoutMs);
  const timed = (result: AttemptResult): DeliveryOutcome => ({ ...result, startedAt, durationMs: performance.now() - started });
  try {
    const destination = await beforeAbort(
      resolveDestination(request.url, options.policy, options.resolve ?? systemResolver),
      deadline.signal,
    );
    if (destination === undefined) return timed({ result: 'retry', failure: 'timeout', detail: 'deadline' });
    if (!destination.ok) {
      if (destination.error === 'dns') return timed({ result: 'retry', failure: 'dns', detail: destination.detail });
      const { error, rule, address } = destination;
      return timed({ result: 'retry', failure: error, detail: rule, rule, address });
    }
    const body = Buffer.from(request.body, 'utf8');
    const headers = {
      ...signatureHeaders({ id: request.id, timestamp: startedAt, body, secrets: request.secrets }),
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
    };
    const answer = await exchange({
      url: destination.url,
      addresses: destination.addresses,
      headers,
      body,
      signal: deadline.signal,
      maxResponseBytes: DELIVERY_LIMITS.maxResponseBytes,
      excerptBytes: DELIVERY_LIMITS.excerptBytes,
      ca: options.ca,
    });
    if (answer.kind === 'failure') return timed({ result: 'retry', failure: answer.failure, detail: answer.detail });
    return timed({
      result: resultOf(answer.status),
      status: answer.status,
      address: answer.address,
      excerpt: answer.excerpt.toString('utf8').replaceAll('\u0000', '\ufffd'),
      truncated: !answer.complete,
    });
  } finally {
    clearTimeout(timer);
  }
}
