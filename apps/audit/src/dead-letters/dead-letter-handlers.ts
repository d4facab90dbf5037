import { AUDIT_LIMITS, type auditV1 } from '@libs/contracts';
import { GrpcStatus, RpcError, type CallContext } from '@libs/grpc';
import type { DeadLetterQueue } from './dead-letter-queue';

const MAX_REPLAY = AUDIT_LIMITS.replay.max;

export function deadLetterHandlers(queue: DeadLetterQueue) {
  return {
    async getDeadLetters(): Promise<auditV1.GetDeadLettersResponse> {
      return { queue: queue.name, depth: await queue.depth() };
    },

    async replayDeadLetters(
      request: auditV1.ReplayDeadLettersRequest,
      context: CallContext,
    ): Promise<auditV1.ReplayDeadLettersResponse> {
      const limit = request.limit === 0 ? MAX_REPLAY : request.limit;
      if (limit > MAX_REPLAY) {
        throw new RpcError(GrpcStatus.INVALID_ARGUMENT, `limit must be 1 to ${MAX_REPLAY}`, [
          { field: 'limit', message: `must be an integer from 1 to ${MAX_REPLAY}` },
        ]);
      }
      return queue.replay(limit, context.deadline);
    },
  };
}
