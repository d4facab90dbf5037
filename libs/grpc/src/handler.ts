import { randomUUID } from 'node:crypto';
import { Metadata, status, type handleUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { isTransientDatabaseError } from '@libs/db';
import { requestContext, type Logger } from '@libs/logging';
import { markSpanFailed, SpanKind, startSpanFrom, withTraceContext } from '@libs/tracing';
import type { ActorSigner } from './actor-signature';
import { RpcError } from './errors';
import { observeHandledCall } from './handler-metrics';
import { METADATA } from './metadata';

export interface Actor {
  userId: string;
  role: string;
}

export interface CallContext {
  requestId: string;
  actor?: Actor;
  /** When the caller stops waiting (ms since the epoch); absent for a call without a deadline. */
  deadline?: number;
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

// Set once at start by the service (trustActorsSignedBy); until then no call carries an actor.
let actorSigner: ActorSigner | undefined;

/** Makes handlers accept the actors the gateway signed with this signer's secret, and no others. */
export function trustActorsSignedBy(signer: ActorSigner): void {
  actorSigner = signer;
}

function actorOf(metadata: Metadata): Actor | undefined {
  const userId = firstString(metadata, METADATA.actorId);
  const role = firstString(metadata, METADATA.actorRole);
  if (!userId || !role || !actorSigner) return undefined;
  const issuedAt = firstString(metadata, METADATA.actorIssuedAt) ?? '';
  const signature = firstString(metadata, METADATA.actorSignature) ?? '';
  return actorSigner.verify({ userId, role }, issuedAt, signature) ? { userId, role } : undefined;
}

function contextOf(metadata: Metadata, deadline: Date | number): CallContext {
  const deadlineMs = deadline instanceof Date ? deadline.getTime() : deadline;
  return {
    requestId: firstString(metadata, METADATA.requestId) ?? randomUUID(),
    actor: actorOf(metadata),
    deadline: Number.isFinite(deadlineMs) ? deadlineMs : undefined,
  };
}

/**
 * Adapts an async handler to grpc-js: it runs inside the request's context (so
 * logs carry the request id) and inside a span continued from the caller's
 * traceparent; RpcErrors pass through, and anything else becomes INTERNAL with
 * a generic message while the detail stays in the log. Every call is timed.
 */
export function unaryHandler<Req, Res>(
  logger: Logger,
  method: string,
  handler: (request: Req, context: CallContext) => Promise<Res>,
): handleUnaryCall<Req, Res> {
  return (call, callback) => {
    const context = contextOf(call.metadata, call.getDeadline());
    const started = process.hrtime.bigint();
    const elapsedMs = () => Number(process.hrtime.bigint() - started) / 1e6;
    const { span, context: traceContext } = startSpanFrom(method, SpanKind.SERVER, call.metadata.getMap(), {
      'rpc.system': 'grpc',
      'rpc.method': method,
    });
    const finish = (code: status) => {
      observeHandledCall(method, code, elapsedMs() / 1000);
      span.setAttribute('rpc.grpc.status_code', code);
      if (code !== status.OK) markSpanFailed(span, status[code]);
      span.end();
    };
    const run = () =>
      handler(call.request, context).then(
        (response) => {
          logger.debug({ method, ms: elapsedMs() }, 'call handled');
          finish(status.OK);
          callback(null, response);
        },
        (error: unknown) => {
          if (error instanceof RpcError) {
            logger.debug({ method, ms: elapsedMs(), code: error.code }, 'call refused');
            finish(error.code);
            callback(error.toServiceError() as ServiceError);
            return;
          }
          // A database away for now is no bug of ours: an honest UNAVAILABLE lets the caller retry (503). One short
          // line per call (the cause, not the query and its values: an outage repeats it at the request rate).
          if (isTransientDatabaseError(error)) {
            logger.warn({ method, cause: String(error) }, 'database unavailable; answered UNAVAILABLE');
            finish(status.UNAVAILABLE);
            callback({ code: status.UNAVAILABLE, details: 'the database is unavailable; retry shortly' } as ServiceError);
            return;
          }
          logger.error({ err: error, method }, 'handler failed');
          finish(status.INTERNAL);
          callback({ code: status.INTERNAL, details: 'internal error' } as ServiceError);
        },
      );
    requestContext.run({ requestId: context.requestId }, () => withTraceContext(traceContext, run));
  };
}
