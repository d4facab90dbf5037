import { financeApi, financeV1 } from '@libs/contracts';
import { requirePermission, type CallContext } from '@libs/grpc';
import { recordEvent, writeTransaction } from '@libs/outbox';
import { readersOf } from '../access';
import type { FinanceDeps } from '../finance-deps';
import { STUDENTS } from '../records/record-kinds';
import { findRecord } from '../records/record-store';
import { visibleStudent } from '../records/visible-student';
import { amountOf } from '../validation/input';
import { given, notFound, parseInput, requireUuid } from '@libs/validation';
import { insertStatementLine, registrationNumberOf, statementOf } from './statement-store';

export function statementHandlers(deps: FinanceDeps) {
  const { sequelize } = deps;
  return {
    async getStudentStatement(
      request: financeV1.GetStudentStatementRequest,
      context: CallContext,
    ): Promise<financeV1.GetStudentStatementResponse> {
      const student = await visibleStudent(sequelize, context, request.studentId);
      const [lines, registrationNumber] = await Promise.all([statementOf(sequelize, student.id), registrationNumberOf(sequelize, student.id)]);
      return { lines, balance: lines.at(-1)?.balance ?? '0', registrationNumber };
    },

    /** Staff post a charge or a credit (a scholarship, a refund) that is not a proof of payment. */
    async addStatementLine(
      request: financeV1.AddStatementLineRequest,
      context: CallContext,
    ): Promise<financeV1.AddStatementLineResponse> {
      const actor = requirePermission(context, 'finance:write');
      const studentId = requireUuid(request.studentId);
      parseInput(financeApi.statementLine, {
        date: request.date,
        description: request.description,
        debit: amountOf(request.debit),
        credit: amountOf(request.credit),
        semesterId: given(request.semesterId),
      });
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'AddStatementLine', key: idempotencyKey, request: fields, codec: financeV1.AddStatementLineResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        // The student is in the path, so a missing one is a 404 rather than a field error.
        if (!(await findRecord(sequelize, STUDENTS, studentId, { transaction }))) throw notFound('student');
        const id = await insertStatementLine(
          sequelize,
          {
            studentId,
            semesterId: request.semesterId.trim() || null,
            date: request.date,
            description: request.description.trim(),
            debit: request.debit,
            credit: request.credit,
            paymentId: null,
          },
          transaction,
        );
        const line = (await statementOf(sequelize, studentId, transaction)).find((l) => l.id === id);
        await recordEvent(sequelize, transaction, context, actor, {
          action: 'statement.line_added',
          entityType: 'financial_statement',
          entityIds: [id],
          before: null,
          after: line,
        }, readersOf);
        return { line };
      });
    },
  };
}
