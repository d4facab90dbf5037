import type { EntityMessage, financeV1 } from '@libs/contracts';
import { GrpcStatus, requireRole, RpcError, type CallContext } from '@libs/grpc';
import { FINANCE_ACCESS } from '../access';
import { mutate, type FinanceDeps } from '../mutation';
import { recordEvent } from '../outbox/record-event';
import { FieldChecks } from '../validation/fields';
import { notFound, requireUuid } from '../validation/ids';
import { checkVersion } from '../validation/versions';
import { ACCOUNTS, CATEGORIES, ID_TEXT_MAX, NAME_MAX, STUDENTS, type RecordEntityType, type RecordKind } from './record-kinds';
import { findRecord, updateRecord } from './record-store';

/** Column changes of a partial update: fields left out (undefined) are not touched; '' clears an optional column. */
function changesOf(fields: Record<string, string | undefined>, required: string[] = []): [string, string | null][] {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([column, value]) => [column, required.includes(column) ? value.trim() : value.trim() || null]);
}

/** The record kinds that carry a version, so can be updated. */
type VersionedEntityType = Exclude<RecordEntityType, 'registration_number'>;

/** PATCH of accounts, categories and students, with the same version check as transactions. */
export function recordUpdateHandlers(deps: FinanceDeps) {
  const { sequelize } = deps;

  async function update<E extends VersionedEntityType>(
    context: CallContext,
    kind: RecordKind<E>,
    request: { id: string; expectedVersion: number },
    checks: FieldChecks,
    changes: [string, string | null][],
  ): Promise<EntityMessage<E>> {
    const actor = requireRole(context, FINANCE_ACCESS.write);
    const id = requireUuid(request.id);
    checks.throwIfAny();
    if (changes.length === 0) throw new RpcError(GrpcStatus.INVALID_ARGUMENT, 'send at least one field to change');
    return mutate(deps, async (transaction) => {
      const before = await findRecord(sequelize, kind, id, { transaction, lock: true });
      if (!before) throw notFound(kind.entityType, id);
      checkVersion(kind.entityType, before.version, request.expectedVersion);
      const after = await updateRecord(sequelize, kind, id, changes, transaction);
      await recordEvent(sequelize, transaction, context, actor, {
        action: `${kind.entityType}.updated`,
        entityType: kind.entityType,
        entityIds: [id],
        before,
        after,
      });
      return after;
    });
  }

  const optionalText = (checks: FieldChecks, value: string | undefined, field: string, options: { required: boolean; max: number }) =>
    value === undefined ? checks : checks.text(value, field, options);

  return {
    updateAccount: async (request: financeV1.UpdateAccountRequest, context: CallContext) => {
      const checks = new FieldChecks();
      optionalText(checks, request.name, 'name', { required: true, max: NAME_MAX });
      optionalText(checks, request.userId, 'userId', { required: false, max: ID_TEXT_MAX });
      const changes = changesOf({ name: request.name, user_id: request.userId }, ['name']);
      return { account: await update(context, ACCOUNTS, request, checks, changes) };
    },
    updateCategory: async (request: financeV1.UpdateCategoryRequest, context: CallContext) => {
      const checks = optionalText(new FieldChecks(), request.name, 'name', { required: true, max: NAME_MAX });
      return { category: await update(context, CATEGORIES, request, checks, changesOf({ name: request.name }, ['name'])) };
    },
    updateStudent: async (request: financeV1.UpdateStudentRequest, context: CallContext) => {
      const checks = new FieldChecks();
      optionalText(checks, request.userId, 'userId', { required: false, max: ID_TEXT_MAX });
      optionalText(checks, request.currentProgramLevelId, 'currentProgramLevelId', { required: false, max: ID_TEXT_MAX });
      const changes = changesOf({ user_id: request.userId, current_program_level_id: request.currentProgramLevelId });
      return { student: await update(context, STUDENTS, request, checks, changes) };
    },
  };
}
