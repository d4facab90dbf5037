import { financeV1 } from '@libs/contracts';
import { requireRole, type CallContext } from '@libs/grpc';
import { FINANCE_ACCESS } from '../access';
import { mutateOnce, type FinanceDeps } from '../mutation';
import { recordEvent } from '../outbox/record-event';
import { FieldChecks, isUuid } from '../validation/fields';
import { checkReferences } from '../validation/references';
import { checkTransactionInput } from './transaction-input';
import { referencesOf } from './transaction-references';
import { deleteTransactions, fieldsOf, insertTransactions, lockTransactions } from './transaction-store';

/** Largest bulk request: it bounds the work and the size of the one audit event (docs/decisions/0006). */
export const MAX_BULK = 1000;

function checkCount(checks: FieldChecks, count: number): void {
  checks.check(count >= 1 && count <= MAX_BULK, '(body)', `must hold 1 to ${MAX_BULK} items, not ${count}`);
}

/** Bulk writes are all or nothing: any bad item fails the whole request, naming the item's index. */
export function bulkHandlers(deps: FinanceDeps) {
  const { sequelize } = deps;
  return {
    async bulkCreateTransactions(
      request: financeV1.BulkCreateTransactionsRequest,
      context: CallContext,
    ): Promise<financeV1.BulkCreateTransactionsResponse> {
      const actor = requireRole(context, FINANCE_ACCESS.write);
      const checks = new FieldChecks();
      checkCount(checks, request.items.length);
      request.items.forEach((item, index) => checkTransactionInput(checks, item, `[${index}].`));
      checks.throwIfAny();
      const call = {
        method: 'BulkCreateTransactions',
        key: request.idempotencyKey,
        request: request.items,
        codec: financeV1.BulkCreateTransactionsResponse,
      };
      return mutateOnce(deps, actor, call, async (transaction) => {
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
        });
        return { ids };
      });
    },

    async bulkDeleteTransactions(
      request: financeV1.BulkDeleteTransactionsRequest,
      context: CallContext,
    ): Promise<financeV1.BulkDeleteTransactionsResponse> {
      const actor = requireRole(context, FINANCE_ACCESS.delete);
      const checks = new FieldChecks();
      checkCount(checks, request.ids.length);
      const seen = new Set<string>();
      request.ids.forEach((id, index) => {
        checks.check(isUuid(id), `[${index}]`, 'must be a UUID');
        checks.check(!seen.has(id.toLowerCase()), `[${index}]`, 'repeats an earlier id');
        seen.add(id.toLowerCase());
      });
      checks.throwIfAny();
      const call = {
        method: 'BulkDeleteTransactions',
        key: request.idempotencyKey,
        request: request.ids,
        codec: financeV1.BulkDeleteTransactionsResponse,
      };
      return mutateOnce(deps, actor, call, async (transaction) => {
        const before = await lockTransactions(sequelize, request.ids, transaction);
        const found = new Set(before.map((row) => row.id));
        request.ids.forEach((id, index) => checks.check(found.has(id.toLowerCase()), `[${index}]`, 'does not exist'));
        checks.throwIfAny();
        await deleteTransactions(sequelize, request.ids, transaction);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'transaction.bulk_deleted',
          entityType: 'transaction',
          entityIds: before.map((row) => row.id),
          before,
          after: null,
        });
        return { ids: request.ids.map((id) => id.toLowerCase()) };
      });
    },
  };
}
