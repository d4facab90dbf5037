import { financeApi, financeV1 } from '@libs/contracts';
import { isTextPair, keysetPage, pageSize } from '@libs/cursor';
import { requirePermission, RpcError, type CallContext } from '@libs/grpc';
import { canSee, readersOf, scopeOf, usersOfStudents } from '../access';
import { auditEventOf, outboxInsert, recordEvent, writeTransaction, writeTransactionInRounds } from '@libs/outbox';
import type { FinanceDeps } from '../finance-deps';
import { FINANCE_PAGE } from '../page-size';
import { checkVersion, FieldChecks, given, notFound, parseInput, requireUuid } from '@libs/validation';
import { checkReferences, reportMissing } from '../validation/references';
import { checkTransactionInput } from './transaction-input';
import { refuseDeletingReversed, refuseReversing, refuseUpdating } from './reversal-rules';
import { referencesOf } from './transaction-references';
import {
  createdFrom,
  createTransactionStatement,
  fieldsOf,
  findTransaction,
  insertReversal,
  type CreateAnswer,
  listTransactions,
  updateTransaction,
  deleteTransactions,
} from './transaction-store';

export function transactionHandlers(deps: FinanceDeps) {
  const { sequelize } = deps;
  return {
    async listTransactions(
      request: financeV1.ListTransactionsRequest,
      context: CallContext,
    ): Promise<financeV1.ListTransactionsResponse> {
      const actor = requirePermission(context, 'finance:read');
      parseInput(financeApi.transactionFilters, { from: given(request.from), to: given(request.to), accountId: given(request.accountId) });
      const limit = pageSize(request.limit, FINANCE_PAGE);
      const scope = await scopeOf(sequelize, actor);
      if (scope.kind === 'own' && scope.studentId === null) return { transactions: [], nextCursor: '' };

      const studentId = scope.kind === 'own' ? scope.studentId : null;
      const page = await keysetPage({
        cursors: deps.cursors,
        cursor: request.cursor,
        query: { from: request.from, to: request.to, accountId: request.accountId, studentId },
        limit,
        isPosition: isTextPair,
        positionOf: (row: financeV1.Transaction): [string, string] => [row.date, row.id],
        fetch: (after, pageLimit) =>
          listTransactions(sequelize, {
            from: request.from || null,
            to: request.to || null,
            accountId: request.accountId || null,
            studentId,
            after,
            limit: pageLimit,
          }),
      });
      return { transactions: page.rows, nextCursor: page.nextCursor };
    },

    async getTransaction(request: financeV1.GetTransactionRequest, context: CallContext): Promise<financeV1.GetTransactionResponse> {
      const actor = requirePermission(context, 'finance:read');
      const id = requireUuid(request.id);
      const scope = await scopeOf(sequelize, actor);
      const transaction = await findTransaction(sequelize, id);
      // Another student's record is answered exactly like a missing one, so ids cannot be probed.
      if (!transaction || !canSee(scope, transaction.studentId || null)) throw notFound('transaction');
      return { transaction };
    },

    async createTransaction(
      request: financeV1.CreateTransactionRequest,
      context: CallContext,
    ): Promise<financeV1.CreateTransactionResponse> {
      const actor = requirePermission(context, 'finance:write');
      if (!request.input) throw RpcError.invalidArgument('(body)', 'is required');
      const input = request.input;
      const checks = new FieldChecks();
      checkTransactionInput(checks, input);
      checks.throwIfAny();
      const call = {
        method: 'CreateTransaction',
        key: request.idempotencyKey,
        request: input,
        codec: financeV1.CreateTransactionResponse,
        actor,
        context,
      };
      const references = referencesOf(input);
      return writeTransactionInRounds(deps, call, async (rounds) => {
        const fields = fieldsOf(input);
        // The event's subjects (readersOf: its student's user) are read in the create's round: a round of their
        // own would cost every create a round trip.
        const [[answer], readers] = (await rounds.run([
          createTransactionStatement(fields, actor.userId, references),
          usersOfStudents(fields.studentId ? [fields.studentId] : []),
        ])) as [CreateAnswer[], { user_id: string }[]];
        const { found, created } = createdFrom(answer);
        reportMissing(checks, references, found);
        checks.throwIfAny();
        if (!created) throw new Error('the create statement found every reference but inserted nothing');
        const event = auditEventOf(context, actor, {
          action: 'transaction.created',
          entityType: 'transaction',
          entityIds: [created.id],
          before: null,
          after: created,
        }, readers.map((row) => row.user_id));
        await rounds.last([outboxInsert(event)]);
        return { transaction: created };
      });
    },

    async updateTransaction(
      request: financeV1.UpdateTransactionRequest,
      context: CallContext,
    ): Promise<financeV1.UpdateTransactionResponse> {
      const actor = requirePermission(context, 'finance:write');
      const id = requireUuid(request.id);
      return writeTransaction(deps, undefined, async (transaction) => {
        const before = await findTransaction(sequelize, id, { transaction, lock: true });
        if (!before) throw notFound('transaction');
        checkVersion('transaction', before.version, request.expectedVersion);
        refuseUpdating(before);
        // The merged record must be a valid transaction; fields left out keep their (already valid) values.
        const merged: financeV1.TransactionInput = {
          studentId: request.studentId ?? before.studentId,
          date: request.date ?? before.date,
          categoryId: request.categoryId ?? before.categoryId,
          payee: request.payee ?? before.payee,
          amount: request.amount ?? before.amount,
          notes: request.notes ?? before.notes,
          accountId: request.accountId ?? before.accountId,
        };
        const checks = new FieldChecks();
        checkTransactionInput(checks, merged);
        checks.throwIfAny();
        await checkReferences(sequelize, checks, changedReferences(request), transaction);
        checks.throwIfAny();
        await updateTransaction(sequelize, id, fieldsOf(merged), transaction);
        const after = await findTransaction(sequelize, id, { transaction });
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'transaction.updated',
          entityType: 'transaction',
          entityIds: [id],
          before,
          after,
        }, readersOf);
        return { transaction: after };
      });
    },

    async deleteTransaction(
      request: financeV1.DeleteTransactionRequest,
      context: CallContext,
    ): Promise<financeV1.DeleteTransactionResponse> {
      const actor = requirePermission(context, 'finance:delete');
      const id = requireUuid(request.id);
      return writeTransaction(deps, undefined, async (transaction) => {
        const before = await findTransaction(sequelize, id, { transaction, lock: true });
        if (!before) throw notFound('transaction');
        refuseDeletingReversed([before]);
        await deleteTransactions(sequelize, [id], transaction);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'transaction.deleted',
          entityType: 'transaction',
          entityIds: [id],
          before,
          after: null,
        }, readersOf);
        return { id };
      });
    },

    /** The linked opposite and its event in one database transaction; the original is locked, so it is reversed once. */
    async reverseTransaction(
      request: financeV1.ReverseTransactionRequest,
      context: CallContext,
    ): Promise<financeV1.ReverseTransactionResponse> {
      const actor = requirePermission(context, 'finance:write');
      const { transactionId, reason } = parseInput(financeApi.transactionReversal, { transactionId: request.transactionId, reason: request.reason });
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'ReverseTransaction', key: idempotencyKey, request: fields, codec: financeV1.ReverseTransactionResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        const original = await findTransaction(sequelize, transactionId.toLowerCase(), { transaction, lock: true });
        // Named in the body, so a missing one is a field error (docs/FINANCE.md, Conventions: ids).
        if (!original) throw RpcError.invalidArgument('transactionId', 'does not exist');
        refuseReversing(original);
        const reversal = await insertReversal(sequelize, original, { reason: reason.trim(), madeBy: actor.userId }, transaction);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'transaction.reversed',
          entityType: 'transaction',
          entityIds: [reversal.id],
          before: null,
          after: reversal,
        }, readersOf);
        return { reversal };
      });
    },
  };
}

/** Only references the update changes need checking; unchanged ones were valid when written. */
const changedReferences = (request: financeV1.UpdateTransactionRequest) =>
  referencesOf({
    studentId: request.studentId ?? '',
    categoryId: request.categoryId ?? '',
    accountId: request.accountId ?? '',
  });
