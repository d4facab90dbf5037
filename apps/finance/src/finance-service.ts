import type { financeV1 } from '@libs/contracts';
import { unaryHandler, type CallContext, type HandlerOptions } from '@libs/grpc';
import type { FinanceDeps } from './finance-deps';
import { paymentHandlers } from './payments/payment-handlers';
import { recordHandlers } from './records/record-handlers';
import { recordUpdateHandlers } from './records/record-updates';
import { statementHandlers } from './statements/statement-handlers';
import { bulkHandlers } from './transactions/bulk-handlers';
import { transactionHandlers } from './transactions/transaction-handlers';

type AnyHandler = (request: never, context: CallContext) => Promise<unknown>;

/** The FinanceService gRPC implementation: every handler wrapped for logging, request context and error mapping. */
export function financeService(deps: FinanceDeps, handling: HandlerOptions): financeV1.FinanceServiceServer {
  const handlers = {
    ...transactionHandlers(deps),
    ...bulkHandlers(deps),
    ...paymentHandlers(deps),
    ...recordHandlers(deps),
    ...recordUpdateHandlers(deps),
    ...statementHandlers(deps),
  } satisfies Record<keyof financeV1.FinanceServiceServer, AnyHandler>; // no RPC left unimplemented
  const wrapped = Object.entries(handlers).map(([name, handler]: [string, AnyHandler]) => [
    name,
    unaryHandler(handling, name[0].toUpperCase() + name.slice(1), handler),
  ]);
  // Each entry keeps its handler's request and response types at run time; the record type cannot say so.
  return Object.fromEntries(wrapped) as financeV1.FinanceServiceServer;
}
