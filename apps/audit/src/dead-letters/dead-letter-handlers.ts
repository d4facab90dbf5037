import { EVENT_STREAMS, type EventStream } from '@libs/bus';
import { AUDIT_LIMITS, type auditV1 } from '@libs/contracts';
import { requirePermission, RpcError, type CallContext } from '@libs/grpc';
import type { DeadLetterQueue } from './dead-letter-queue';

const MAX_REPLAY = AUDIT_LIMITS.replay.max;

/** The dead-letter admin calls, over each stream's dead-letter queue; a call naming no stream means finance's. */
export function deadLetterHandlers(queues: Record<EventStream, DeadLetterQueue>) {
  function queueOf(stream: string | undefined): DeadLetterQueue {
    const name = stream || 'finance';
    if (!(EVENT_STREAMS as readonly string[]).includes(name)) {
      const streams = EVENT_STREAMS.join(', ');
      throw RpcError.invalidArgument('stream', `must be one of ${streams}`);
    }
    return queues[name as EventStream];
  }

  return {
    async getDeadLetters(request: auditV1.GetDeadLettersRequest, context: CallContext): Promise<auditV1.GetDeadLettersResponse> {
      requirePermission(context, 'audit:read');
      const queue = queueOf(request.stream);
      return { queue: queue.name, depth: await queue.depth() };
    },

    async replayDeadLetters(
      request: auditV1.ReplayDeadLettersRequest,
      context: CallContext,
    ): Promise<auditV1.ReplayDeadLettersResponse> {
      requirePermission(context, 'audit:replay');
      const queue = queueOf(request.stream);
      const limit = request.limit === 0 ? MAX_REPLAY : request.limit;
      if (limit > MAX_REPLAY) {
        throw RpcError.invalidArgument('limit', `must be an integer from 1 to ${MAX_REPLAY}`);
      }
      return queue.replay(limit, context.deadline);
    },
  };
}
