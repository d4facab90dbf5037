import { financeApi, type EntityMessage, type financeV1 } from '@libs/contracts';
import { requirePermission, type CallContext } from '@libs/grpc';
import { recordEvent, writeTransaction } from '@libs/outbox';
import type { FinanceDeps } from '../finance-deps';
import { checkVersion, notFound, parseInput, presentFields, requireUuid } from '@libs/validation';
import { ACCOUNTS, CATEGORIES, STUDENTS, type RecordEntityType, type RecordKind } from './record-kinds';
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
    changes: [string, string | null][],
  ): Promise<EntityMessage<E>> {
    const actor = requirePermission(context, 'finance:write');
    const id = requireUuid(request.id);
    return writeTransaction(deps, undefined, async (transaction) => {
      const before = await findRecord(sequelize, kind, id, { transaction, lock: true });
      if (!before) throw notFound(kind.entityType);
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

  const { recordBodies } = financeApi;
  /** A cleared optional field travels as '': the API's PATCH says null. */
  const cleared = (value: string | undefined) => (value === '' ? null : value);

  return {
    updateAccount: async (request: financeV1.UpdateAccountRequest, context: CallContext) => {
      parseInput(recordBodies.account.update, presentFields({ name: request.name, userId: cleared(request.userId) }));
      const changes = changesOf({ name: request.name, user_id: request.userId }, ['name']);
      return { account: await update(context, ACCOUNTS, request, changes) };
    },
    updateCategory: async (request: financeV1.UpdateCategoryRequest, context: CallContext) => {
      parseInput(recordBodies.category.update, presentFields({ name: request.name }));
      return { category: await update(context, CATEGORIES, request, changesOf({ name: request.name }, ['name'])) };
    },
    updateStudent: async (request: financeV1.UpdateStudentRequest, context: CallContext) => {
      const fields = { userId: cleared(request.userId), currentProgramLevelId: cleared(request.currentProgramLevelId) };
      parseInput(recordBodies.student.update, presentFields(fields));
      const changes = changesOf({ user_id: request.userId, current_program_level_id: request.currentProgramLevelId });
      return { student: await update(context, STUDENTS, request, changes) };
    },
  };
}
