import type { Sequelize, Transaction } from 'sequelize';
import { financeApi, financeV1 } from '@libs/contracts';
import { isTextPair, keysetPage, pageSize } from '@libs/cursor';
import { GrpcStatus, requirePermission, RpcError, type Actor, type CallContext } from '@libs/grpc';
import { canSee, reachOf, readersOf, scopeOf } from '../access';
import { recordEvent, writeTransaction } from '@libs/outbox';
import type { FinanceDeps } from '../finance-deps';
import { FINANCE_PAGE } from '../page-size';
import { insertStatementLine, paymentCreditLine, registrationNumberOf } from '../statements/statement-store';
import { amountOf } from '../validation/input';
import { FieldChecks, given, notFound, parseInput, requireUuid } from '@libs/validation';
import { checkReferences } from '../validation/references';
import { linkFiles } from '../files/file-store';
import { nextStatus, type PaymentMove } from './payment-states';
import { findPayment, insertPayment, listPayments, setPaymentReversed, setPaymentStatus } from './payment-store';

/** The student a payment is submitted for: a student always submits for themselves. */
async function submitterStudent(sequelize: Sequelize, actor: Actor, requested: string, transaction: Transaction) {
  const scope = await scopeOf(sequelize, actor, transaction);
  if (scope.kind === 'all') return requested;
  const own = scope.studentId;
  if (own === null) throw new RpcError(GrpcStatus.PERMISSION_DENIED, 'your user has no student record to pay for');
  if (requested !== '' && requested.toLowerCase() !== own) {
    throw new RpcError(GrpcStatus.PERMISSION_DENIED, 'a student may submit proofs of payment only for themselves');
  }
  return own;
}

export function paymentHandlers(deps: FinanceDeps) {
  const { sequelize } = deps;

  /** Process and resolve: lock the row, check the move, write it and its event in one transaction. */
  async function move(
    context: CallContext,
    id: string,
    kind: PaymentMove,
    change: { note: string; outcome?: string },
  ): Promise<{ payment: financeV1.Payment }> {
    const actor = requirePermission(context, 'finance:write');
    return writeTransaction(deps, undefined, async (transaction) => {
      // FOR UPDATE: of two concurrent moves on one payment, the second waits and then sees the new status.
      const before = await findPayment(sequelize, id, transaction, true);
      if (!before) throw notFound('payment');
      const status = nextStatus(before.status, kind);
      await setPaymentStatus(sequelize, id, { status, by: actor.userId, ...change }, transaction);
      if (change.outcome === 'accepted') {
        await insertStatementLine(
          sequelize,
          {
            studentId: before.studentId,
            semesterId: null,
            date: before.date,
            description: `Payment received${before.description ? `: ${before.description}` : ''}`,
            debit: '0',
            credit: before.amount,
            paymentId: id,
          },
          transaction,
        );
      }
      const after = await findPayment(sequelize, id, transaction);
      await recordEvent(sequelize, transaction, context, actor, {
        action: kind === 'process' ? 'payment.processed' : 'payment.resolved',
        entityType: 'payment',
        entityIds: [id],
        before,
        after,
      }, readersOf);
      return { payment: after };
    });
  }

  return {
    async listPayments(request: financeV1.ListPaymentsRequest, context: CallContext): Promise<financeV1.ListPaymentsResponse> {
      const actor = requirePermission(context, 'finance:read');
      parseInput(financeApi.paymentFilters, { status: given(request.status), studentId: given(request.studentId) });
      const limit = pageSize(request.limit, FINANCE_PAGE);
      const scope = await scopeOf(sequelize, actor);
      if (scope.kind === 'own' && scope.studentId === null) return { payments: [], nextCursor: '' };
      if (scope.kind === 'own' && request.studentId && request.studentId.toLowerCase() !== scope.studentId) {
        return { payments: [], nextCursor: '' };
      }
      const studentId = scope.kind === 'own' ? scope.studentId : request.studentId.toLowerCase() || null;
      const page = await keysetPage({
        cursors: deps.cursors,
        cursor: request.cursor,
        query: { status: request.status, studentId },
        limit,
        isPosition: isTextPair,
        positionOf: (row: { position: [string, string] }) => row.position,
        fetch: (after, pageLimit) => listPayments(sequelize, { status: request.status || null, studentId, after, limit: pageLimit }),
      });
      return { payments: page.rows.map((row) => row.payment), nextCursor: page.nextCursor };
    },

    async getPayment(request: financeV1.GetPaymentRequest, context: CallContext): Promise<financeV1.GetPaymentResponse> {
      const actor = requirePermission(context, 'finance:read');
      const id = requireUuid(request.id);
      const scope = await scopeOf(sequelize, actor);
      const payment = await findPayment(sequelize, id);
      // Another student's payment is answered exactly like a missing one, so ids cannot be probed.
      if (!payment || !canSee(scope, payment.studentId)) throw notFound('payment');
      return { payment, registrationNumber: await registrationNumberOf(sequelize, payment.studentId) };
    },

    async submitPayment(request: financeV1.SubmitPaymentRequest, context: CallContext): Promise<financeV1.SubmitPaymentResponse> {
      const actor = requirePermission(context, 'payments:submit');
      const checks = new FieldChecks();
      const submission = {
        studentId: given(request.studentId),
        amount: amountOf(request.amount),
        description: request.description,
        date: request.date,
        fileIds: request.fileIds,
      };
      checks.parse(financeApi.paymentSubmission, submission);
      const fileIds = request.fileIds.map((id) => id.toLowerCase());
      fileIds.forEach((id, index) => checks.check(fileIds.indexOf(id) === index, `fileIds[${index}]`, 'repeats an earlier id'));
      // Staff name the student; a student pays for themselves.
      checks.check(reachOf(actor) === 'own' || request.studentId !== '', 'studentId', 'is required');
      checks.throwIfAny();
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'SubmitPayment', key: idempotencyKey, request: fields, codec: financeV1.SubmitPaymentResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        const studentId = await submitterStudent(sequelize, actor, request.studentId, transaction);
        await checkReferences(sequelize, checks, [{ table: 'students', id: studentId, field: 'studentId' }], transaction);
        checks.throwIfAny();
        const id = await insertPayment(
          sequelize,
          { studentId, userId: actor.userId, amount: request.amount, description: request.description.trim(), date: request.date },
          transaction,
        );
        // The payment takes the files in its own transaction: refused, it takes none and they stay unlinked.
        const unusable = await linkFiles(sequelize, id, fileIds, actor.userId, transaction);
        for (const index of unusable) checks.check(false, `fileIds[${index}]`, 'names no upload of yours that a payment may take');
        checks.throwIfAny();
        const payment = await findPayment(sequelize, id, transaction);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'payment.submitted',
          entityType: 'payment',
          entityIds: [id],
          before: null,
          after: payment,
        }, readersOf);
        return { payment };
      });
    },

    async processPayment(request: financeV1.ProcessPaymentRequest, context: CallContext): Promise<financeV1.ProcessPaymentResponse> {
      requirePermission(context, 'finance:write');
      const id = requireUuid(request.id);
      parseInput(financeApi.paymentProcessing, { outcome: request.outcome, note: request.note });
      return move(context, id, 'process', { note: request.note, outcome: request.outcome });
    },

    async resolvePayment(request: financeV1.ResolvePaymentRequest, context: CallContext): Promise<financeV1.ResolvePaymentResponse> {
      requirePermission(context, 'finance:write');
      const id = requireUuid(request.id);
      parseInput(financeApi.paymentResolution, { note: request.note });
      return move(context, id, 'resolve', { note: request.note });
    },

    /**
     * Takes back an accepted payment (a bounced transfer, a forged slip): the credit it wrote stays on the statement
     * and a debit line linked to it offsets it, dated the day of the reversal, with the status change and its event
     * in one database transaction.
     */
    async reversePayment(request: financeV1.ReversePaymentRequest, context: CallContext): Promise<financeV1.ReversePaymentResponse> {
      const actor = requirePermission(context, 'finance:write');
      const id = requireUuid(request.id);
      const { reason } = parseInput(financeApi.reversal, { reason: request.reason });
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'ReversePayment', key: idempotencyKey, request: fields, codec: financeV1.ReversePaymentResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        const before = await findPayment(sequelize, id, transaction, true);
        if (!before) throw notFound('payment');
        nextStatus(before.status, 'reverse');
        const credit = before.outcome === 'accepted' ? await paymentCreditLine(sequelize, id, transaction) : undefined;
        if (!credit) throw new RpcError(GrpcStatus.FAILED_PRECONDITION, 'only an accepted payment can be reversed; this one credited nothing');
        await setPaymentReversed(sequelize, id, { by: actor.userId, reason: reason.trim() }, transaction);
        await insertStatementLine(
          sequelize,
          {
            studentId: before.studentId,
            semesterId: credit.semesterId,
            date: new Date().toISOString().slice(0, 10),
            description: `Payment reversed: ${reason.trim()}`,
            debit: before.amount,
            credit: '0',
            paymentId: null,
            reversalOf: credit.id,
          },
          transaction,
        );
        const after = await findPayment(sequelize, id, transaction);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'payment.reversed',
          entityType: 'payment',
          entityIds: [id],
          before,
          after,
        }, readersOf);
        return { payment: after };
      });
    },
  };
}
