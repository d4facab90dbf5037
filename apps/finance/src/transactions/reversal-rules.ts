import type { financeV1 } from '@libs/contracts';
import { GrpcStatus, RpcError } from '@libs/grpc';

/**
 * A reversed transaction and its reversal are a pair that cancels out (docs/decisions/0016): changing either would
 * leave an unexplained remainder, so both are closed to updates and further reversals; a new transaction corrects
 * them instead.
 */
export function refuseReversing(original: financeV1.Transaction): void {
  if (original.reversedBy) {
    throw new RpcError(GrpcStatus.FAILED_PRECONDITION, `transaction ${original.id} is already reversed by ${original.reversedBy}`);
  }
  if (original.reversalOf) {
    throw new RpcError(GrpcStatus.FAILED_PRECONDITION, `transaction ${original.id} is a reversal; record a new transaction instead`);
  }
}

export function refuseUpdating(before: financeV1.Transaction): void {
  if (before.reversedBy || before.reversalOf) {
    throw new RpcError(GrpcStatus.FAILED_PRECONDITION, `transaction ${before.id} is part of a reversal and cannot change; record a new transaction instead`);
  }
}

/** Deleting a reversed transaction would leave its reversal pointing nowhere: its reversal goes first, or with it. */
export function refuseDeletingReversed(rows: financeV1.Transaction[]): void {
  const deleted = new Set(rows.map((row) => row.id));
  const orphaning = rows.find((row) => row.reversedBy && !deleted.has(row.reversedBy));
  if (orphaning) {
    throw new RpcError(
      GrpcStatus.FAILED_PRECONDITION,
      `transaction ${orphaning.id} is reversed by ${orphaning.reversedBy}; delete the reversal first, or both together`,
    );
  }
}
