import { financeApi, financeV1, type EntityMessage } from '@libs/contracts';
import { requirePermission, type CallContext } from '@libs/grpc';
import { recordEvent, writeTransaction } from '@libs/outbox';
import { reachOf } from '../access';
import type { FinanceDeps } from '../finance-deps';
import { FieldChecks, given, notFound, requireUuid } from '@libs/validation';
import { checkReferences, type Reference } from '../validation/references';
import { ACCOUNTS, CATEGORIES, REGISTRATION_NUMBERS, STUDENTS, type RecordEntityType, type RecordKind } from './record-kinds';
import { findRecord, insertRecord, listRecords } from './record-store';
import { visibleStudent } from './visible-student';

interface Codec<R> {
  toJSON(message: R): unknown;
  fromJSON(object: unknown): R;
}

/** Accounts, categories, registration numbers and students: create, list, get. */
export function recordHandlers(deps: FinanceDeps) {
  const { sequelize } = deps;

  async function get<E extends RecordEntityType>(context: CallContext, kind: RecordKind<E>, rawId: string): Promise<EntityMessage<E>> {
    requirePermission(context, 'finance:records:read');
    const id = requireUuid(rawId);
    const record = await findRecord(sequelize, kind, id);
    if (!record) throw notFound(kind.entityType.replace('_', ' '));
    return record;
  }

  async function create<E extends RecordEntityType, R>(
    context: CallContext,
    kind: RecordKind<E>,
    input: { values: (string | null)[]; checks: FieldChecks; references: Reference[]; key: string; request: unknown },
    codec: Codec<R>,
    wrap: (record: EntityMessage<E>) => R,
  ): Promise<R> {
    const actor = requirePermission(context, 'finance:write');
    input.checks.throwIfAny();
    const call = { method: `Create:${kind.table}`, key: input.key, request: input.request, codec, actor, context };
    return writeTransaction(deps, call, async (transaction) => {
      await checkReferences(sequelize, input.checks, input.references, transaction);
      input.checks.throwIfAny();
      const record = await insertRecord(sequelize, kind, input.values, transaction);
      await recordEvent(sequelize, transaction, context, actor, {
        action: `${kind.entityType}.created`,
        entityType: kind.entityType,
        entityIds: [record.id],
        before: null,
        after: record,
      });
      return wrap(record);
    });
  }

  const { recordBodies } = financeApi;
  /** The problems of a create request's fields, by the API's schema for the record's body. */
  const checked = (schema: Parameters<FieldChecks['parse']>[0], body: unknown) => {
    const problems = new FieldChecks();
    problems.parse(schema, body);
    return problems;
  };

  return {
    async listAccounts(_: financeV1.ListAccountsRequest, context: CallContext): Promise<financeV1.ListAccountsResponse> {
      requirePermission(context, 'finance:records:read');
      return { accounts: await listRecords(sequelize, ACCOUNTS) };
    },
    getAccount: async (request: financeV1.GetAccountRequest, context: CallContext) => ({
      account: await get(context, ACCOUNTS, request.id),
    }),
    createAccount: (request: financeV1.CreateAccountRequest, context: CallContext) =>
      create(
        context,
        ACCOUNTS,
        {
          values: [request.name.trim(), request.userId || null],
          checks: checked(recordBodies.account.create, { name: request.name, userId: given(request.userId) }),
          references: [],
          key: request.idempotencyKey,
          request: { name: request.name, userId: request.userId },
        },
        financeV1.CreateAccountResponse,
        (account) => ({ account }),
      ),

    async listCategories(_: financeV1.ListCategoriesRequest, context: CallContext): Promise<financeV1.ListCategoriesResponse> {
      requirePermission(context, 'finance:records:read');
      return { categories: await listRecords(sequelize, CATEGORIES) };
    },
    getCategory: async (request: financeV1.GetCategoryRequest, context: CallContext) => ({
      category: await get(context, CATEGORIES, request.id),
    }),
    createCategory: (request: financeV1.CreateCategoryRequest, context: CallContext) =>
      create(
        context,
        CATEGORIES,
        { values: [request.name.trim()], checks: checked(recordBodies.category.create, { name: request.name }), references: [], key: request.idempotencyKey, request: { name: request.name } },
        financeV1.CreateCategoryResponse,
        (category) => ({ category }),
      ),

    async listRegistrationNumbers(
      _: financeV1.ListRegistrationNumbersRequest,
      context: CallContext,
    ): Promise<financeV1.ListRegistrationNumbersResponse> {
      requirePermission(context, 'finance:records:read');
      return { registrationNumbers: await listRecords(sequelize, REGISTRATION_NUMBERS) };
    },
    getRegistrationNumber: async (request: financeV1.GetRegistrationNumberRequest, context: CallContext) => ({
      registrationNumber: await get(context, REGISTRATION_NUMBERS, request.id),
    }),
    createRegistrationNumber: (request: financeV1.CreateRegistrationNumberRequest, context: CallContext) =>
      create(
        context,
        REGISTRATION_NUMBERS,
        {
          values: [request.number.trim()],
          checks: checked(recordBodies.registrationNumber.create, { number: request.number }),
          references: [],
          key: request.idempotencyKey,
          request: { number: request.number },
        },
        financeV1.CreateRegistrationNumberResponse,
        (registrationNumber) => ({ registrationNumber }),
      ),

    async listStudents(_: financeV1.ListStudentsRequest, context: CallContext): Promise<financeV1.ListStudentsResponse> {
      const actor = requirePermission(context, 'finance:read');
      if (reachOf(actor) === 'all') return { students: await listRecords(sequelize, STUDENTS) };
      return { students: await listRecords(sequelize, STUDENTS, { column: 'user_id', value: actor.userId }) };
    },
    getStudent: async (request: financeV1.GetStudentRequest, context: CallContext) => ({
      student: await visibleStudent(sequelize, context, request.id),
    }),
    createStudent: (request: financeV1.CreateStudentRequest, context: CallContext) =>
      create(
        context,
        STUDENTS,
        {
          values: [request.registrationNumberId, request.userId || null, request.currentProgramLevelId || null],
          checks: checked(recordBodies.student.create, {
            registrationNumberId: request.registrationNumberId,
            userId: given(request.userId),
            currentProgramLevelId: given(request.currentProgramLevelId),
          }),
          references: [{ table: 'registration_numbers', id: request.registrationNumberId, field: 'registrationNumberId' }],
          key: request.idempotencyKey,
          request: { ...request, idempotencyKey: undefined },
        },
        financeV1.CreateStudentResponse,
        (student) => ({ student }),
      ),
  };
}
