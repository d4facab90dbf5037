import { financeApi } from '@libs/contracts';
import { GrpcStatus, RpcError } from '@libs/grpc';

export type PaymentStatus = (typeof financeApi.PAYMENT_STATUSES)[number];

/**
 * The only legal moves: pending → processed → resolved, and an accepted payment, processed or resolved, may be
 * reversed once (docs/FINANCE.md, the state machine). Reversal also needs the outcome `accepted`: nextStatus's
 * caller checks it, as it is not a status.
 */
const MOVES = {
  process: { from: ['pending'], to: 'processed' },
  resolve: { from: ['processed'], to: 'resolved' },
  reverse: { from: ['processed', 'resolved'], to: 'reversed' },
} as const satisfies Record<string, { from: readonly PaymentStatus[]; to: PaymentStatus }>;

export type PaymentMove = keyof typeof MOVES;

/** The status a move leads to; any other move is a conflict with the payment's current state (409). */
export function nextStatus(current: PaymentStatus, move: PaymentMove): PaymentStatus {
  const rule = MOVES[move];
  if (!(rule.from as readonly PaymentStatus[]).includes(current)) {
    throw new RpcError(
      GrpcStatus.FAILED_PRECONDITION,
      `cannot ${move} a payment that is ${current}; only a ${rule.from.join(' or ')} payment can be ${rule.to}`,
    );
  }
  return rule.to;
}
