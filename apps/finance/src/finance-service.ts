import type { financeV1 } from '@libs/contracts';
import { serviceImplementation, type HandlerOptions } from '@libs/grpc';
import type { FinanceDeps } from './finance-deps';
import { paymentHandlers } from './payments/payment-handlers';
import { recordHandlers } from './records/record-handlers';
import { recordUpdateHandlers } from './records/record-updates';
import { statementHandlers } from './statements/statement-handlers';
import { bulkHandlers } from './transactions/bulk-handlers';
import { transactionHandlers } from './transactions/transaction-handlers';

/** The FinanceService gRPC implementation: every handler wrapped for logging, request context and error mapping. */
export function financeService(deps: FinanceDeps, handling: HandlerOptions): financeV1.FinanceServiceServer {
  // The record type makes a missing RPC a compile error.
  return serviceImplementation<financeV1.FinanceServiceServer>(handling, {
    ...transactionHandlers(deps),
    ...bulkHandlers(deps),
    ...paymentHandlers(deps),
    ...recordHandlers(deps),
    ...recordUpdateHandlers(deps),
    ...statementHandlers(deps),
  });
}
