import CircuitBreaker from 'opossum';
import {
  callUnary,
  GrpcStatus,
  type Metadata,
  outgoingMetadata,
  type Actor,
  type ActorSigner,
  READ_RETRY_POLICY,
  retryWithinDeadline,
  type UnaryMethod,
} from '@libs/grpc';
import { HttpProblem } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import type { CallerKey } from '../routing/access';
import type { AnswerCache } from './answer-cache';
import { breakerOptions } from './breaker-options';
import { isServiceError, problemFromGrpc } from './grpc-problem';
import { timeUpstreamCall, upstreamRetries, type BreakerState } from './upstream-metrics';

/**
 * Only UNAVAILABLE says that nothing was done: the call reached no working server, or one whose database was away.
 * Anything else is final. How long a retry may take is retryWithinDeadline's to judge.
 */
const isRetryable = (error: unknown) => isServiceError(error) && error.code === GrpcStatus.UNAVAILABLE;

function outcomeOf(error: unknown): string {
  if (isServiceError(error)) return GrpcStatus[error.code] ?? String(error.code);
  return (error as { code?: string }).code === 'EOPENBREAKER' ? 'BREAKER_OPEN' : 'ERROR';
}

/**
 * What one call is made for, as plain values (platform/routing/mount.ts makes
 * it from the HTTP request): its request id, the key whose user acts (and
 * whose concurrency limit applies), and whether the call may be repeated or
 * its answer reused.
 */
export interface UpstreamCall {
  requestId: string;
  key?: CallerKey;
  /** Who acts when no key does: the gateway itself (GATEWAY_ACTOR), for what it asks after its own commit. */
  actor?: Actor;
  /** Takes one of the key's places for the call, or rejects with a 429 (AccessCheck.enterCall); the function returned gives it back. */
  enter(): Promise<() => void>;
  /**
   * A read, safe to repeat: retried within the deadline when the service is unavailable. A mutation is never
   * retried here (a lost answer is not a lost write: the client retries it with its Idempotency-Key).
   */
  retryable: boolean;
  /** `use`: an answer in the cache will do; `refresh`: fetch anew and cache that; `skip`: keep out of the cache. */
  cache: 'use' | 'refresh' | 'skip';
  /** Sees the service's response headers (gRPC initial metadata) of an uncached call, before its answer. */
  onHeaders?: (headers: Metadata) => void;
}

export interface UpstreamOptions {
  timeoutMs: number;
  /** Signs the acting user of each call, so the service can believe it. */
  actorSigner: ActorSigner;
  resetMs: number;
  /** For an upstream whose answers depend on the request alone (read-only data): answers of GET requests are reused. */
  cache?: AnswerCache;
}

/**
 * One gRPC upstream: a long-lived client behind its own circuit breaker. Every
 * call carries the request id, the acting user, the trace context and a
 * deadline; calls made for GET requests are retried with jittered backoff
 * within that same deadline. Failures come back as HttpProblems.
 */
export class Upstream<C extends object> {
  private readonly breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;

  constructor(
    readonly name: string,
    readonly client: C,
    private readonly options: UpstreamOptions,
    logger: Logger,
  ) {
    this.breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), breakerOptions(options));
    this.breaker.on('open', () => logger.warn({ upstream: name }, 'circuit opened'));
    this.breaker.on('halfOpen', () => logger.info({ upstream: name }, 'circuit half-open'));
    this.breaker.on('close', () => logger.info({ upstream: name }, 'circuit closed'));
  }

  get state(): BreakerState {
    if (this.breaker.opened) return 'open';
    return this.breaker.halfOpen ? 'half-open' : 'closed';
  }

  /**
   * One call, holding one of its key's places until the answer is in, whatever
   * the client does meanwhile; refused (429) before it reaches the cache when
   * the key has none left, so that no other request shares the refusal.
   */
  async call<Req, Res>(pick: (client: C) => UnaryMethod<Req, Res>, request: Req, call: UpstreamCall): Promise<Res> {
    const leave = await call.enter();
    try {
      return await this.answer(pick, request, call);
    } finally {
      leave();
    }
  }

  private answer<Req, Res>(pick: (client: C) => UnaryMethod<Req, Res>, request: Req, call: UpstreamCall): Promise<Res> {
    const { cache } = this.options;
    if (!cache || call.cache === 'skip') return this.callUpstream(pick, request, call);
    // grpc-js puts the method's full path (/package.Service/Method) on each client method.
    const { path } = pick(this.client) as { path?: string };
    return cache.answer(path ?? String(pick), request, () => this.callUpstream(pick, request, call), { fresh: call.cache === 'refresh' });
  }

  private async callUpstream<Req, Res>(pick: (client: C) => UnaryMethod<Req, Res>, request: Req, call: UpstreamCall): Promise<Res> {
    const method = pick(this.client).bind(this.client) as UnaryMethod<Req, Res>;
    const context = { requestId: call.requestId, actor: call.actor ?? (call.key && { userId: call.key.userId, role: call.key.role }) };
    const attempt = (timeoutMs: number) => callUnary(method, request, { metadata: outgoingMetadata(context, this.options.actorSigner), timeoutMs, onHeaders: call.onHeaders });
    const deadline = Date.now() + this.options.timeoutMs;
    const stopTimer = timeUpstreamCall(this.name);
    const retryAfter = Math.ceil(this.options.resetMs / 1000);
    try {
      // The breaker sees one logical call, however many attempts it took.
      const response = (await this.breaker.fire(() =>
        call.retryable
          ? retryWithinDeadline(attempt, {
              deadline,
              policy: READ_RETRY_POLICY,
              isRetryable,
              onRetry: () => upstreamRetries.inc({ upstream: this.name }),
            })
          : attempt(this.options.timeoutMs),
      )) as Res;
      stopTimer('OK');
      return response;
    } catch (error) {
      stopTimer(outcomeOf(error));
      if (isServiceError(error)) throw problemFromGrpc(this.name, error, retryAfter);
      if ((error as { code?: string }).code === 'EOPENBREAKER') {
        throw new HttpProblem(503, `the ${this.name} service is not answering; calls are paused for a moment`, {
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
      throw error;
    }
  }

  shutdown(): void {
    this.breaker.shutdown();
    (this.client as { close?: () => void }).close?.();
  }
}
