import CircuitBreaker from 'opossum';
import {
  callUnary,
  GrpcStatus,
  type Metadata,
  outgoingMetadata,
  pathOf,
  type Actor,
  type ActorSigner,
  READ_RETRY_POLICY,
  retryWithinDeadline,
  type UnaryMethod,
} from '@libs/grpc';
import type { CallOptions, ClientReadableStream, ClientWritableStream, ServiceError } from '@grpc/grpc-js';
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

/** A method whose requests are a stream (client streaming), as grpc-js's generated client has it. */
export type ClientStreamMethod<Req, Res> = (
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientWritableStream<Req>;

/** A method whose answers are a stream (server streaming). */
export type ServerStreamMethod<Req, Res> = (request: Req, metadata: Metadata, options: Partial<CallOptions>) => ClientReadableStream<Res>;

export interface UpstreamOptions {
  timeoutMs: number;
  /**
   * The deadline of a streamed call: it lasts as long as the client sends or reads, within what the gateway allows
   * a whole request to arrive (HTTP_REQUEST_TIMEOUT_MS) and then a call (UPSTREAM_TIMEOUT_MS): a slow client meets
   * the request timeout first (408), not a gateway timeout.
   */
  streamTimeoutMs: number;
  /**
   * Signs the acting user of each call for this service and the method called, so the service can believe it;
   * `null` for a service that acts for nobody (reference), which is sent no actor.
   */
  actorSigner: ActorSigner | null;
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
    return cache.answer(pathOf(pick(this.client)), request, () => this.callUpstream(pick, request, call), { fresh: call.cache === 'refresh' });
  }

  private async callUpstream<Req, Res>(pick: (client: C) => UnaryMethod<Req, Res>, request: Req, call: UpstreamCall): Promise<Res> {
    const method = pick(this.client).bind(this.client) as UnaryMethod<Req, Res>;
    const attempt = (timeoutMs: number) =>
      callUnary(method, request, { metadata: this.metadataOf(call, pick(this.client)), timeoutMs, onHeaders: call.onHeaders });
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
      if ((error as { code?: string }).code === 'EOPENBREAKER') throw this.openProblem();
      throw error;
    }
  }

  /**
   * A call whose requests `send` writes as they come (client streaming), each once the last is on its way (HTTP/2
   * flow control: back-pressure reaches the client's socket). Should `send` fail (the client went, or sent
   * too much), the call is cancelled and its failure is the answer; should the call end first (the service refused),
   * `ended` aborts, and `send` stops reading what it was sending. Never retried (the stream is spent), and not
   * counted by the breaker: its length is the client's, and a slow client must not open it; an open breaker
   * refuses it all the same.
   */
  async sendStream<Req, Res>(
    pick: (client: C) => ClientStreamMethod<Req, Res>,
    send: (write: (message: Req) => Promise<void>, ended: AbortSignal) => Promise<void>,
    call: UpstreamCall,
  ): Promise<Res> {
    const leave = await call.enter();
    const stopTimer = timeUpstreamCall(this.name);
    try {
      this.refuseWhileOpen();
      const answer = await new Promise<Res>((resolve, reject) => {
        const options = { deadline: Date.now() + this.options.streamTimeoutMs };
        const ended = new AbortController();
        const stream = pick(this.client).call(this.client, this.metadataOf(call, pick(this.client)), options, (error, response) => {
          ended.abort();
          return error ? reject(error) : resolve(response);
        });
        // Settled once grpc-js has handed the message to HTTP/2 (which waits for the service's flow-control window),
        // not once it is queued: one message in flight a call, so the gateway's memory does not grow with the stream.
        const write = (message: Req) =>
          new Promise<void>((written, failed) => {
            const settle = (error?: unknown) => {
              stream.off('error', settle);
              return error ? failed(error) : written();
            };
            stream.once('error', settle);
            stream.write(message, settle);
          });
        send(write, ended.signal).then(
          () => stream.end(),
          (error: unknown) => {
            reject(error);
            stream.cancel();
          },
        );
      });
      stopTimer('OK');
      return answer;
    } catch (error) {
      throw this.problemOf(error, stopTimer);
    } finally {
      leave();
    }
  }

  /**
   * The answers of a server-streaming call, each read when the caller asks for the next (back-pressure), holding one
   * of the key's places until the last; a failure is an HttpProblem, before the first answer as after. Like
   * sendStream, neither retried nor counted by the breaker.
   */
  async *receiveStream<Req, Res>(pick: (client: C) => ServerStreamMethod<Req, Res>, request: Req, call: UpstreamCall): AsyncIterable<Res> {
    const leave = await call.enter();
    const stopTimer = timeUpstreamCall(this.name);
    let stream: ClientReadableStream<Res> | undefined;
    try {
      this.refuseWhileOpen();
      stream = pick(this.client).call(this.client, request, this.metadataOf(call, pick(this.client)), { deadline: Date.now() + this.options.streamTimeoutMs });
      // Failures reach the loop below through its iterator; the CANCELLED of our own cancel, after it, is no news.
      stream.on('error', () => undefined);
      for await (const answer of stream as AsyncIterable<Res>) yield answer;
      stopTimer('OK');
    } catch (error) {
      throw this.problemOf(error, stopTimer);
    } finally {
      // The caller stopped early (its client went): the service stops too.
      stream?.cancel();
      leave();
    }
  }

  /** The call's metadata, with a token for its actor valid toward this service and `method` alone. */
  private metadataOf(call: UpstreamCall, method: unknown): Metadata {
    const actor = call.actor ?? (call.key && { userId: call.key.userId, role: call.key.role });
    const signer = this.options.actorSigner;
    const acting = actor && signer ? { actor, signer, target: { audience: this.name, path: pathOf(method) } } : undefined;
    return outgoingMetadata({ requestId: call.requestId, acting });
  }

  private openProblem(): HttpProblem {
    return new HttpProblem(503, `the ${this.name} service is not answering; calls are paused for a moment`, {
      headers: { 'Retry-After': String(Math.ceil(this.options.resetMs / 1000)) },
    });
  }

  private refuseWhileOpen(): void {
    if (this.breaker.opened) throw this.openProblem();
  }

  /** A streamed call's failure as the client sees it: a service's refusal mapped, anything else (the client's own) as it is. */
  private problemOf(error: unknown, stopTimer: (outcome: string) => void): unknown {
    stopTimer(outcomeOf(error));
    return isServiceError(error) ? problemFromGrpc(this.name, error, Math.ceil(this.options.resetMs / 1000)) : error;
  }

  shutdown(): void {
    this.breaker.shutdown();
    (this.client as { close?: () => void }).close?.();
  }
}
