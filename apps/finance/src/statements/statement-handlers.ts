import { financeV1 } from '@libs/contracts';
import { requireRole, type CallContext } from '@libs/grpc';
import { FINANCE_ACCESS } from '../access';
import { mutateOnce, type FinanceDeps } from '../mutation';
import { recordEvent } from '@libs/outbox';
import { STUDENTS } from '../records/record-kinds';
import { findRecord } from '../records/record-store';
import { visibleStudent } from '../records/visible-student';
import { FieldChecks } from '../validation/fields';
import { notFound, requireUuid } from '@libs/validation';
import { insertStatementLine, statementOf } from './statement-store';

const DESCRIPTION_MAX = 500;
const SEMESTER_MAX = 64;

export function statementHandlers(deps: FinanceDeps) {
  const { sequelize } = deps;
  return {
    async getStudentStatement(
      request: financeV1.GetStudentStatementRequest,
      context: CallContext,
    ): Promise<financeV1.GetStudentStatementResponse> {
      const student = await visibleStudent(sequelize, context, request.studentId);
      const lines = await statementOf(sequelize, student.id);
      return { lines, balance: lines.at(-1)?.balance ?? '0' };
    },

    /** Staff post a charge or a credit (a scholarship, a refund) that is not a proof of payment. */
    async addStatementLine(
      request: financeV1.AddStatementLineRequest,
      context: CallContext,
    ): Promise<financeV1.AddStatementLineResponse> {
      const actor = requireRole(context, FINANCE_ACCESS.write);
      const studentId = requireUuid(request.studentId);
      const checks = new FieldChecks()
        .text(request.semesterId, 'semesterId', { required: false, max: SEMESTER_MAX })
        .date(request.date, 'date')
        .text(request.description, 'description', { required: true, max: DESCRIPTION_MAX })
        .amount(request.debit, 'debit')
        .amount(request.credit, 'credit');
      const [debit, credit] = [request.debit, request.credit].map((value) => (/^\d+$/.test(value) ? BigInt(value) : -1n));
      checks.check((debit > 0n) !== (credit > 0n) && debit >= 0n && credit >= 0n, '(body)', 'give exactly one of debit and credit, as a positive amount');
      checks.throwIfAny();
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'AddStatementLine', key: idempotencyKey, request: fields, codec: financeV1.AddStatementLineResponse };
      return mutateOnce(deps, actor, call, async (transaction) => {
        // The student is in the path, so a missing one is a 404 rather than a field error.
        if (!(await findRecord(sequelize, STUDENTS, studentId, { transaction }))) throw notFound('student', studentId);
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
        });
        return { line };
      });
    },
  };
}
