import type { Sequelize } from 'sequelize';
import type { financeV1 } from '@libs/contracts';
import { GrpcStatus, RpcError, type CallContext } from '@libs/grpc';
import { requireRole } from '../access';
import { recordEvent } from '../outbox/record-event';
import { FieldChecks, isUuid } from '../validation/fields';
import { findTransaction, insertTransaction, missingReferences } from './transaction-store';

function invalid(checks: FieldChecks): RpcError {
  const summary = checks.errors.map((e) => `${e.field} ${e.message}`).join('; ');
  return new RpcError(GrpcStatus.INVALID_ARGUMENT, summary, checks.errors);
}

export function transactionHandlers(sequelize: Sequelize, afterCommit: () => void) {
  return {
    async createTransaction(
      request: financeV1.CreateTransactionRequest,
      context: CallContext,
    ): Promise<financeV1.CreateTransactionResponse> {
      const actor = requireRole(context, 'bursar', 'admin');
      const checks = new FieldChecks()
        .uuid(request.studentId, 'studentId', { required: false })
        .date(request.date, 'date')
        .uuid(request.categoryId, 'categoryId', { required: true })
        .text(request.payee, 'payee', { required: true, max: 200 })
        .amount(request.amount, 'amount')
        .text(request.notes, 'notes', { required: false, max: 2000 })
        .uuid(request.accountId, 'accountId', { required: true });
      if (checks.errors.length > 0) throw invalid(checks);

      const created = await sequelize.transaction(async (transaction) => {
        const studentId = request.studentId || null;
        const missing = await missingReferences(
          sequelize,
          [
            { table: 'accounts', id: request.accountId, field: 'accountId' },
            { table: 'categories', id: request.categoryId, field: 'categoryId' },
            { table: 'students', id: studentId, field: 'studentId' },
          ],
          transaction,
        );
        for (const field of missing) checks.check(false, field, 'does not exist');
        if (checks.errors.length > 0) throw invalid(checks);

        const row = await insertTransaction(
          sequelize,
          { ...request, studentId, payee: request.payee.trim(), madeBy: actor.userId },
          transaction,
        );
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'transaction.created',
          entityType: 'transaction',
          entityIds: [row.id],
          before: null,
          after: row,
        });
        return row;
      });
      afterCommit();
      return { transaction: created };
    },

    async getTransaction(
      request: financeV1.GetTransactionRequest,
      context: CallContext,
    ): Promise<financeV1.GetTransactionResponse> {
      requireRole(context, 'bursar', 'admin');
      if (!isUuid(request.id)) {
        throw new RpcError(GrpcStatus.INVALID_ARGUMENT, 'id must be a UUID', [{ field: 'id', message: 'must be a UUID' }]);
      }
      const transaction = await findTransaction(sequelize, request.id);
      if (!transaction) throw new RpcError(GrpcStatus.NOT_FOUND, `no transaction with id ${request.id}`);
      return { transaction };
    },
  };
}
