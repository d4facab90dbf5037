import { GrpcStatus, RpcError } from '@libs/grpc';

/** Optimistic concurrency: expected 0 means "any version"; otherwise it must be the current one (ABORTED → HTTP 412). */
export function checkVersion(what: string, current: number, expected: number): void {
  if (expected === 0 || expected === current) return;
  throw new RpcError(
    GrpcStatus.ABORTED,
    `the ${what} is at version ${current}, not ${expected}; fetch it again and reapply the change`,
  );
}
