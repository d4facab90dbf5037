import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  Metadata,
  status,
  type handleClientStreamingCall,
  type handleServerStreamingCall,
  type handleUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { isTransientDatabaseError } from '@libs/db';
import { plainRequestId, requestContext, type Logger } from '@libs/logging';
import { markSpanFailed, SpanKind, startSpanFrom, withTraceContext, type Span } from '@libs/tracing';
import type { Actor, ActorVerifier } from './actor-token';
import { RpcError } from './errors';
import { countRefusedActor, observeHandledCall } from './handler-metrics';
import { METADATA } from './metadata';
import { namesOf } from './method-path';
import { INTERNAL_ERROR, safeCallback } from './safe-callback';

export interface CallContext {
  requestId: string;
  actor?: Actor;
  /** When the caller stops waiting (ms since the epoch); absent for a call without a deadline. */
  deadline?: number;
  /** Sends response headers (gRPC initial metadata) ahead of the answer; absent where no call carries them (tests). */
  sendHeaders?: (headers: Record<string, string>) => void;
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** What every handler of a service is wrapped with, passed in by the service's main. */
export interface HandlerOptions {
  logger: Logger;
  /**
   * Checks the actor token the gateway signed for each call (for this service and the method called); a call
   * without one carries no actor. `null` for a service that acts for nobody (reference data reads the same for every
   * role): it never reads a token.
   */
  actors: ActorVerifier | null;
}

/**
 * The call's actor, from its token; a token that does not hold (another service's or method's, expired, forged) is
 * refused, counted and logged: nobody the gateway sent has one, so it is a replay or a forgery, or a clock far off.
 */
function actorOf(metadata: Metadata, path: string, { actors, logger }: HandlerOptions): Actor | undefined {
  const token = actors && firstString(metadata, METADATA.actorToken);
  if (!token) return undefined;
  const checked = actors.check(token, path);
  if ('actor' in checked) return checked.actor;
  countRefusedActor(checked.refused);
  logger.warn({ method: path, reason: checked.refused }, 'actor token refused');
  throw new RpcError(status.UNAUTHENTICATED, `the actor token was refused (${checked.refused})`);
}

function contextOf(metadata: Metadata, deadline: Date | number, path: string, options: HandlerOptions): CallContext {
  const deadlineMs = deadline instanceof Date ? deadline.getTime() : deadline;
  return {
    requestId: plainRequestId(firstString(metadata, METADATA.requestId)) ?? randomUUID(),
    actor: actorOf(metadata, path, options),
    deadline: Number.isFinite(deadlineMs) ? deadlineMs : undefined,
  };
}

/** What every kind of call offers the core below: its metadata, deadline and response headers. */
interface IncomingCall {
  metadata: Metadata;
  getDeadline(): Date | number;
  sendMetadata(metadata: Metadata): void;
}

/**
 * Runs one call's handler inside the request's context (so logs carry the
 * request id) and inside a span continued from the caller's traceparent;
 * RpcErrors pass through (well-formed and bounded), and anything else, thrown
 * or rejected, before or inside the handler, becomes INTERNAL with a generic
 * message while the detail stays in the log. Nothing escapes to the process.
 * Every call is timed. `respond` delivers the outcome as the kind of call does. `path` is the method's full gRPC
 * path (grpc-service.ts passes it): the actor token must name it, and its last part names the method in metrics.
 */
function handled<Res>(
  options: HandlerOptions,
  path: string,
  call: IncomingCall,
  work: (context: CallContext) => Promise<Res>,
  respond: (error: ServiceError | null, response?: Res) => void,
): void {
  const { logger } = options;
  const { method } = namesOf(path);
  const started = process.hrtime.bigint();
  const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6;
  let span: Span | undefined;
  let finished = false;
  const finish = (code: status) => {
    if (finished) return;
    finished = true;
    observeHandledCall(method, code, elapsedMs() / 1000);
    if (!span) return;
    span.setAttribute('rpc.grpc.status_code', code);
    if (code !== status.OK) markSpanFailed(span, status[code]);
    span.end();
  };
  const succeed = (response: Res) => {
    logger.debug({ method, ms: elapsedMs() }, 'call handled');
    finish(status.OK);
    respond(null, response);
  };
  const failUnexpectedly = (error: unknown) => {
    logger.error({ err: error, method }, 'handler failed');
    finish(status.INTERNAL);
    respond(INTERNAL_ERROR);
  };
  const fail = (error: unknown) => {
    // A database away for now is no bug of ours: an honest UNAVAILABLE lets the caller retry (503). One short
    // line per call (the cause, not the query and its values: an outage repeats it at the request rate).
    if (isTransientDatabaseError(error)) {
      logger.warn({ method, cause: String(error) }, 'database unavailable; answered UNAVAILABLE');
      finish(status.UNAVAILABLE);
      respond({ code: status.UNAVAILABLE, details: 'the database is unavailable; retry shortly' } as ServiceError);
      return;
    }
    if (!(error instanceof RpcError)) return failUnexpectedly(error);
    logger.debug({ method, ms: elapsedMs(), code: error.code }, 'call refused');
    finish(error.code);
    respond(error.toServiceError() as ServiceError);
  };
  try {
    const context: CallContext = {
      ...contextOf(call.metadata, call.getDeadline(), path, options),
      sendHeaders: (headers) => {
        const metadata = new Metadata();
        for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
        call.sendMetadata(metadata);
      },
    };
    const traced = startSpanFrom(method, SpanKind.SERVER, call.metadata.getMap(), {
      'rpc.system': 'grpc',
      'rpc.method': method,
    });
    span = traced.span;
    // Promise.resolve().then makes a synchronous throw of the handler a rejection like any other.
    const run = () => Promise.resolve().then(() => work(context)).then(succeed, fail);
    // Whatever succeed or fail themselves throw still gets an answer.
    requestContext.run({ requestId: context.requestId }, () => withTraceContext(traced.context, run)).catch(failUnexpectedly);
  } catch (error) {
    fail(error);
  }
}

/** Adapts an async handler of one request and one answer to grpc-js (see handled). */
export function unaryHandler<Req, Res>(
  options: HandlerOptions,
  path: string,
  handler: (request: Req, context: CallContext) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    handled(options, path, call, (context) => handler(call.request, context), safeCallback(options.logger, path, callback));
  };
}

/** The caller gave up (cancelled, or its deadline passed): a stream still being read or written ends with this. */
export class CallCancelled extends Error {
  constructor() {
    super('the caller cancelled the call');
    this.name = 'CallCancelled';
  }
}

/**
 * A stream of requests (client streaming): the handler iterates over them, and reads the next only when it asks
 * (back-pressure reaches the caller through HTTP/2 flow control). A cancelled call makes the iteration throw
 * CallCancelled, or end as if the caller had finished (grpc-js may see the stream's end before the cancel): a handler
 * that must tell a whole stream from a cut one needs the caller to mark its last message (UploadFile's `last`).
 */
export function clientStreamHandler<Req, Res>(
  options: HandlerOptions,
  path: string,
  handler: (requests: AsyncIterable<Req>, context: CallContext) => Promise<Res>,
): handleClientStreamingCall<Req, Res> {
  return (call, callback) => {
    call.on('cancelled', () => call.destroy(new CallCancelled()));
    // Headers at once: the caller's grpc-js then knows the call arrived and stops holding every message written for a
    // transparent retry. An upload would otherwise hold up to its retry buffer (libs/grpc/src/client.ts) until the
    // answer, in the buffer that the channel's other calls share. (A handler's own sendHeaders then comes too late.)
    call.sendMetadata(new Metadata());
    handled(options, path, call, (context) => handler(call, context), safeCallback(options.logger, path, callback));
  };
}

/**
 * A stream of answers (server streaming): each one the handler yields is written once the caller has taken the
 * last (back-pressure), and the handler stops (CallCancelled) when the caller goes.
 */
export function serverStreamHandler<Req, Res>(
  options: HandlerOptions,
  path: string,
  handler: (request: Req, context: CallContext) => AsyncIterable<Res>,
): handleServerStreamingCall<Req, Res> {
  return (call) => {
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
      call.emit('drain');
    });
    const work = async (context: CallContext) => {
      for await (const response of handler(call.request, context)) {
        if (cancelled) throw new CallCancelled();
        if (!call.write(response)) await once(call, 'drain');
      }
    };
    let answered = false;
    handled(options, path, call, work, (error) => {
      if (answered || cancelled) return;
      answered = true;
      if (error) call.emit('error', error);
      else call.end();
    });
  };
}
