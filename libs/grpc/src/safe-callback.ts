import { status, type sendUnaryData, type ServiceError } from '@grpc/grpc-js';
import type { Logger } from '@libs/logging';

/** What the caller learns of anything a service did not expect; the detail stays in the service's log. */
export const INTERNAL_ERROR = { code: status.INTERNAL, details: 'internal error' } as ServiceError;

/**
 * grpc-js's callback for a unary call, made safe to call: it answers at most
 * once, and when grpc-js throws while sending the answer (e.g. encodeURI's
 * URIError on status details it cannot encode) it answers INTERNAL instead,
 * so the exception never reaches the process.
 */
export function safeCallback<Res>(logger: Logger, method: string, callback: sendUnaryData<Res>): sendUnaryData<Res> {
  let answered = false;
  return (error, response) => {
    if (answered) return;
    answered = true;
    try {
      callback(error, response);
    } catch (thrown) {
      logger.error({ err: thrown, method }, 'could not send the answer; answering INTERNAL instead');
      try {
        callback(INTERNAL_ERROR);
      } catch (again) {
        logger.error({ err: again, method }, 'could not answer INTERNAL either; the call is left to its deadline');
      }
    }
  };
}
