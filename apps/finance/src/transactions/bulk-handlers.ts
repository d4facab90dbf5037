import { financeApi, financeV1 } from '@libs/contracts';
import { requirePermission, type CallContext } from '@libs/grpc';
import { recordEvent, writeTransaction } from '@libs/outbox';
import { readersOf } from '../access';
import type { FinanceDeps } from '../finance-deps';
import { FieldChecks, parseInput } from '@libs/validation';
import { checkReferences } from '../validation/references';
import { apiTransaction } from './transaction-input';
import { refuseDeletingReversed } from './reversal-rules';
import { referencesOf } from './transaction-references';
import { deleteTransactions, fieldsOf, insertTransactions, lockTransactions } from './transaction-store';

/** Bulk writes are all or nothing: any bad item fails the whole request, naming the item's index. */
export function bulkHandlers(deps: FinanceDeps) {
  const { sequelize } = deps;
  return {
    async bulkCreateTransactions(
      request: financeV1.BulkCreateTransactionsRequest,
      context: CallContext,
    ): Promise<financeV1.BulkCreateTransactionsResponse> {
      const actor = requirePermission(context, 'finance:write');
      const checks = new FieldChecks();
      checks.parse(financeApi.bulkCreate, request.items.map(apiTransaction));
      checks.throwIfAny();
      const call = {
        method: 'BulkCreateTransactions',
        key: request.idempotencyKey,
        request: request.items,
        codec: financeV1.BulkCreateTransactionsResponse,
        actor,
        context,
      };
      return writeTransaction(deps, call, async (transaction) => {
        const references = request.items.flatMap((item, index) => referencesOf(item, `[${index}].`));
        await checkReferences(sequelize, checks, references, transaction);
        checks.throwIfAny();
        const created = await insertTransactions(sequelize, request.items.map(fieldsOf), actor.userId, transaction);
        const ids = created.map((row) => row.id);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'transaction.bulk_created',
          entityType: 'transaction',
          entityIds: ids,
          before: null,
          after: created,
        }, readersOf);
        return { ids };
      });
    },

    async bulkDeleteTransactions(
      request: financeV1.BulkDeleteTransactionsRequest,
      context: CallContext,
    ): Promise<financeV1.BulkDeleteTransactionsResponse> {
      const actor = requirePermission(context, 'finance:delete');
      parseInput(financeApi.bulkDelete, request.ids);
      const checks = new FieldChecks();
      const call = {
        method: 'BulkDeleteTransactions',
        key: request.idempotencyKey,
        request: request.ids,
        codec: financeV1.BulkDeleteTransactionsResponse,
        actor,
        context,
      };
      return writeTransaction(deps, call, async (transaction) => {
        const before = await lockTransactions(sequelize, request.ids, transaction);
        const found = new Set(before.map((row) => row.id));
        request.ids.forEach((id, index) => checks.check(found.has(id.toLowerCase()), `[${index}]`, 'does not exist'));
        checks.throwIfAny();
        refuseDeletingReversed(before);
        await deleteTransactions(sequelize, request.ids, transaction);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'transaction.bulk_deleted',
          entityType: 'transaction',
          entityIds: before.map((row) => row.id),
          before,
          after: null,
        }, readersOf);
        return { ids: request.ids.map((id) => id.toLowerCase()) };
      });
    },
  };
}
