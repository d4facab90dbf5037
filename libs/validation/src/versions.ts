import { GrpcStatus, RpcError } from '@libs/grpc';

/**
 * Optimistic concurrency: expected 0 means "any version"; otherwise it must be the current one (ABORTED → HTTP 412).
 * The refusal gives the current version, not the one the client sent (client input is not echoed).
 */
export function checkVersion(what: string, current: number, expected: number): void {
  if (expected === 0 || expected === current) return;
  throw new RpcError(
    GrpcStatus.ABORTED,
    `the ${what} is at version ${current}; fetch it again and reapply the change`,
  );
}
