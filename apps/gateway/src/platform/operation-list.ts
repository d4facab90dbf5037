import * as appointments from '../appointments/appointment-operations';
import * as appointmentMoves from '../appointments/appointment-move-operations';
import * as audit from '../audit/audit-operations';
import * as finance from '../finance/transaction-operations';
import * as records from '../finance/record-operations';
import * as identity from '../identity/identity-operations';
import * as reference from '../reference/reference-operations';
import { schedulingOperations } from '../scheduling/scheduling-operations';
import * as platform from './platform-operations';
import type { OperationSpec } from './routing/operation';

const isOperation = (value: unknown): value is OperationSpec =>
  typeof value === 'object' && value !== null && 'operationId' in value && 'method' in value;

/** Every declared operation, from each area's declarations: what /openapi.json documents. */
export function allOperations(): OperationSpec[] {
  const recordKinds = [records.accounts, records.categories, records.registrationNumbers, records.students];
  const declared = [
    ...Object.values(identity),
    ...Object.values(reference),
    ...Object.values(finance),
    ...recordKinds.flatMap((kind) => [kind.list, kind.get, kind.create, kind.update]),
    records.getStudentStatement,
    records.addStatementLine,
    ...Object.values(appointments),
    ...Object.values(appointmentMoves),
    ...Object.values(audit),
    ...schedulingOperations,
    ...Object.values(platform),
  ];
  return declared.filter(isOperation);
}
