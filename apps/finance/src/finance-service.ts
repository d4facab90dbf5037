import { financeV1 } from '@libs/contracts';
import { grpcService, type HandlerOptions, type ServiceRegistration } from '@libs/grpc';
import type { FinanceDeps } from './finance-deps';
import { fileHandlers } from './files/file-handlers';
import type { FileStorage } from './files/file-storage';
import { paymentHandlers } from './payments/payment-handlers';
import { recordHandlers } from './records/record-handlers';
import { recordUpdateHandlers } from './records/record-updates';
import { statementHandlers } from './statements/statement-handlers';
import { bulkHandlers } from './transactions/bulk-handlers';
import { transactionHandlers } from './transactions/transaction-handlers';

/** finance.v1.FinanceService: every handler wrapped for logging, request context and error mapping. */
export function financeService(deps: FinanceDeps & { files: FileStorage }, handling: HandlerOptions): ServiceRegistration {
  return grpcService(financeV1.FinanceServiceService, handling, {
    ...transactionHandlers(deps),
    ...bulkHandlers(deps),
    ...paymentHandlers(deps),
    ...recordHandlers(deps),
    ...recordUpdateHandlers(deps),
    ...statementHandlers(deps),
    ...fileHandlers(deps),
  });
}
