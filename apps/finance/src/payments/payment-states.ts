import { financeApi } from '@libs/contracts';
import { GrpcStatus, RpcError } from '@libs/grpc';

export type PaymentStatus = (typeof financeApi.PAYMENT_STATUSES)[number];

/** The only legal moves: pending → processed → resolved. */
const MOVES = {
  process: { from: 'pending', to: 'processed' },
  resolve: { from: 'processed', to: 'resolved' },
} as const satisfies Record<string, { from: PaymentStatus; to: PaymentStatus }>;

export type PaymentMove = keyof typeof MOVES;

/** The status a move leads to; any other move is a conflict with the payment's current state (409). */
export function nextStatus(current: PaymentStatus, move: PaymentMove): PaymentStatus {
  const rule = MOVES[move];
  if (current !== rule.from) {
    throw new RpcError(
      GrpcStatus.FAILED_PRECONDITION,
      `cannot ${move} a payment that is ${current}; only a ${rule.from} payment can be ${rule.to}`,
    );
  }
  return rule.to;
}
