import type { financeV1 } from '@libs/contracts';
import { unaryHandler } from '@libs/grpc';
import type { Logger } from '@libs/logging';
import type { FinanceDeps } from './mutation';
import { paymentHandlers } from './payments/payment-handlers';
import { recordHandlers } from './records/record-handlers';
import { recordUpdateHandlers } from './records/record-updates';
import { statementHandlers } from './statements/statement-handlers';
import { bulkHandlers } from './transactions/bulk-handlers';
import { transactionHandlers } from './transactions/transaction-handlers';

/** The FinanceService gRPC implementation: every handler wrapped for logging, request context and error mapping. */
export function financeService(deps: FinanceDeps, logger: Logger): financeV1.FinanceServiceServer {
  const handlers = {
    ...transactionHandlers(deps),
    ...bulkHandlers(deps),
    ...paymentHandlers(deps),
    ...recordHandlers(deps),
    ...recordUpdateHandlers(deps),
    ...statementHandlers(deps),
  } satisfies Record<keyof financeV1.FinanceServiceServer, unknown>; // no RPC left unimplemented
  const wrap = <K extends keyof typeof handlers>(name: K) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler keeps its own request/response types
    unaryHandler(logger, name[0].toUpperCase() + name.slice(1), handlers[name] as any);
  return Object.fromEntries(Object.keys(handlers).map((name) => [name, wrap(name as keyof typeof handlers)])) as
    unknown as financeV1.FinanceServiceServer;
}
