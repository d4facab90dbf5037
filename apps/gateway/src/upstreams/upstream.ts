import type { Response } from 'express';
import CircuitBreaker from 'opossum';
import {
  callUnary,
  GrpcStatus,
  outgoingMetadata,
  type ActorSigner,
  READ_RETRY_POLICY,
  retryWithinDeadline,
  type UnaryMethod,
} from '@libs/grpc';
import { HttpProblem } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import type { KeyOwner } from '../auth/key-store';
import type { AnswerCache } from './answer-cache';
import { breakerOptions } from './breaker-options';
import { isServiceError, problemFromGrpc } from './grpc-problem';
import { upstreamDuration, upstreamRetries, type BreakerState } from './upstream-metrics';

// Reads are safe to repeat; a mutation is never retried here (a lost answer is
// not a lost write: the client retries it with its Idempotency-Key).
const IDEMPOTENT_HTTP_METHODS = new Set(['GET', 'HEAD']);

/**
 * Only UNAVAILABLE says that nothing was done: the call reached no working server, or one whose database was away.
 * Anything else is final. How long a retry may take is retryWithinDeadline's to judge.
 */
const isRetryable = (error: unknown) => isServiceError(error) && error.code === GrpcStatus.UNAVAILABLE;

function outcomeOf(error: unknown): string {
  if (isServiceError(error)) return GrpcStatus[error.code] ?? String(error.code);
  return (error as { code?: string }).code === 'EOPENBREAKER' ? 'BREAKER_OPEN' : 'ERROR';
}

/** Lets each call in only while the calling key has a place left (auth/key-limiter.ts); rejects with a 429 otherwise. */
export interface CallGate {
  /** Takes a place for the key of the request `res` answers; the function returned gives it back. */
  enter(res: Response): Promise<() => void>;
}

export interface UpstreamOptions {
  timeoutMs: number;
  /** Signs the acting user of each call, so the service can believe it. */
  actorSigner: ActorSigner;
  resetMs: number;
  /** For an upstream whose answers depend on the request alone (read-only data): answers of GET requests are reused. */
  cache?: AnswerCache;
  /** Per-key concurrency: one key cannot hold every call. */
  callGate: CallGate;
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
   * One call for the request `res` answers, holding one of its key's places
   * until the answer is in, whatever the client does meanwhile; refused (429)
   * before it reaches the cache when the key has none left, so that no other
   * request shares the refusal.
   */
  async call<Req, Res>(pick: (client: C) => UnaryMethod<Req, Res>, request: Req, res: Response): Promise<Res> {
    const leave = await this.options.callGate.enter(res);
    try {
      return await this.answer(pick, request, res);
    } finally {
      leave();
    }
  }

  private answer<Req, Res>(pick: (client: C) => UnaryMethod<Req, Res>, request: Req, res: Response): Promise<Res> {
    const { cache } = this.options;
    // A client asking for no-cache (RFC 9111 §5.2.1.4) gets a fresh answer, which then refreshes the cache.
    const fresh = /no-cache/i.test(res.req.get('cache-control') ?? '');
    if (!cache || !IDEMPOTENT_HTTP_METHODS.has(res.req.method)) return this.callUpstream(pick, request, res);
    // grpc-js puts the method's full path (/package.Service/Method) on each client method.
    const { path } = pick(this.client) as { path?: string };
    return cache.answer(path ?? String(pick), request, () => this.callUpstream(pick, request, res), { fresh });
  }

  private async callUpstream<Req, Res>(pick: (client: C) => UnaryMethod<Req, Res>, request: Req, res: Response): Promise<Res> {
    const method = pick(this.client).bind(this.client) as UnaryMethod<Req, Res>;
    const owner = res.locals.owner as KeyOwner | undefined;
    const context = {
      requestId: res.locals.requestId as string,
      actor: owner && { userId: owner.userId, role: owner.role },
    };
    const attempt = (timeoutMs: number) => callUnary(method, request, { metadata: outgoingMetadata(context, this.options.actorSigner), timeoutMs });
    const deadline = Date.now() + this.options.timeoutMs;
    const idempotent = IDEMPOTENT_HTTP_METHODS.has(res.req.method);
    const stopTimer = upstreamDuration.startTimer({ upstream: this.name });
    const retryAfter = Math.ceil(this.options.resetMs / 1000);
    try {
      // The breaker sees one logical call, however many attempts it took.
      const response = (await this.breaker.fire(() =>
        idempotent
          ? retryWithinDeadline(attempt, {
              deadline,
              policy: READ_RETRY_POLICY,
              isRetryable,
              onRetry: () => upstreamRetries.inc({ upstream: this.name }),
            })
          : attempt(this.options.timeoutMs),
      )) as Res;
      stopTimer({ outcome: 'OK' });
      return response;
    } catch (error) {
      stopTimer({ outcome: outcomeOf(error) });
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
