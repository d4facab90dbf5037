import type { Response } from 'express';
import CircuitBreaker from 'opossum';
import { callUnary, outgoingMetadata, type UnaryMethod } from '@libs/grpc';
import { HttpProblem } from '@libs/http-problems';
import type { Logger } from '@libs/logging';
import type { KeyOwner } from '../auth/key-store';
import { BUSINESS_CODES, isServiceError, problemFromGrpc } from './grpc-problem';

export interface UpstreamOptions {
  timeoutMs: number;
  resetMs: number;
}

/**
 * One gRPC upstream: a long-lived client behind its own circuit breaker. Every
 * call carries the request id and the acting user, and a deadline; failures
 * come back as HttpProblems.
 */
export class Upstream<C extends object> {
  private readonly breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;

  constructor(
    readonly name: string,
    readonly client: C,
    private readonly options: UpstreamOptions,
    logger: Logger,
  ) {
    this.breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
      timeout: false, // the gRPC deadline bounds each call
      resetTimeout: options.resetMs,
      errorThresholdPercentage: 50,
      volumeThreshold: 10,
      rollingCountTimeout: 10_000,
      errorFilter: (error: unknown) => isServiceError(error) && BUSINESS_CODES.has(error.code),
    });
    this.breaker.on('open', () => logger.warn({ upstream: name }, 'circuit opened'));
    this.breaker.on('halfOpen', () => logger.info({ upstream: name }, 'circuit half-open'));
    this.breaker.on('close', () => logger.info({ upstream: name }, 'circuit closed'));
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.breaker.opened) return 'open';
    return this.breaker.halfOpen ? 'half-open' : 'closed';
  }

  async call<Req, Res>(pick: (client: C) => UnaryMethod<Req, Res>, request: Req, res: Response): Promise<Res> {
    const method = pick(this.client).bind(this.client) as UnaryMethod<Req, Res>;
    const owner = res.locals.owner as KeyOwner | undefined;
    const metadata = outgoingMetadata({
      requestId: res.locals.requestId as string,
      actor: owner && { userId: owner.userId, role: owner.role },
    });
    const retryAfter = Math.ceil(this.options.resetMs / 1000);
    try {
      return (await this.breaker.fire(() => callUnary(method, request, { metadata, timeoutMs: this.options.timeoutMs }))) as Res;
    } catch (error) {
      if (isServiceError(error)) throw problemFromGrpc(this.name, error, retryAfter);
      if ((error as { code?: string }).code === 'EOPENBREAKER') {
        throw new HttpProblem(503, `the ${this.name} service is failing; calls are paused for a moment`, {
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
