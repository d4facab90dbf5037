import { QueryTypes, type Transaction } from 'sequelize';
import { SCHEDULING_LIMITS, schedulingApi, schedulingV1 } from '@libs/contracts';
import { requirePermission, type Actor, type CallContext } from '@libs/grpc';
import { recordEvent, writeTransaction } from '@libs/outbox';
import { isText, keysetPage, pageSize } from '@libs/cursor';
import { checkVersion, notFound, parseInput, presentFields, requireUuid } from '@libs/validation';
import { readersOf } from '../access';
import type { SchedulingDeps } from '../scheduling-deps';
import { findService, SERVICE_COLUMNS, toService, type ServiceRow } from './service-store';

export function serviceHandlers(deps: SchedulingDeps) {
  const { sequelize, cursors } = deps;

  async function changed(transaction: Transaction, context: CallContext, actor: Actor, before: ServiceRow | undefined, id: string) {
    const after = (await findService(sequelize, id, transaction)) as ServiceRow;
    await recordEvent(sequelize, transaction, context, actor, {
      action: before ? 'service.updated' : 'service.created',
      entityType: 'service',
      entityIds: [id],
      before: before && toService(before),
      after: toService(after),
    }, readersOf);
    return { service: toService(after) };
  }

  return {
    async listServices(request: schedulingV1.ListServicesRequest, context: CallContext): Promise<schedulingV1.ListServicesResponse> {
      requirePermission(context, 'scheduling:browse');
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { services: true },
        limit: pageSize(request.limit, SCHEDULING_LIMITS.page),
        isPosition: isText,
        positionOf: (row: ServiceRow) => row.id,
        fetch: (after, limit) =>
          sequelize.query<ServiceRow>(
            `SELECT ${SERVICE_COLUMNS} FROM services WHERE $1::uuid IS NULL OR id > $1::uuid ORDER BY id LIMIT $2`,
            { bind: [after ?? null, limit], type: QueryTypes.SELECT },
          ),
      });
      return { services: page.rows.map(toService), nextCursor: page.nextCursor };
    },

    async getService(request: schedulingV1.GetServiceRequest, context: CallContext): Promise<schedulingV1.GetServiceResponse> {
      requirePermission(context, 'scheduling:browse');
      const row = await findService(sequelize, requireUuid(request.id));
      if (!row) throw notFound('service');
      return { service: toService(row) };
    },

    async createService(request: schedulingV1.CreateServiceRequest, context: CallContext): Promise<schedulingV1.CreateServiceResponse> {
      const actor = requirePermission(context, 'scheduling:configure');
      const input = parseInput(schedulingApi.newService, request.input ?? schedulingV1.ServiceInput.fromPartial({}));
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'CreateService', key: idempotencyKey, request: fields, codec: schedulingV1.CreateServiceResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        const [{ id }] = await sequelize.query<{ id: string }>(
          `INSERT INTO services (name, duration_minutes, slot_step_minutes, buffer_before_minutes, buffer_after_minutes, policy)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING id::text`,
          {
            bind: [input.name.trim(), input.durationMinutes, input.slotStepMinutes, input.bufferBeforeMinutes, input.bufferAfterMinutes, JSON.stringify(input.policy)],
            type: QueryTypes.SELECT,
            transaction,
          },
        );
        return changed(transaction, context, actor, undefined, id);
      });
    },

    /** Existing appointments keep the policy they were made under. */
    async updateService(request: schedulingV1.UpdateServiceRequest, context: CallContext): Promise<schedulingV1.UpdateServiceResponse> {
      const actor = requirePermission(context, 'scheduling:configure');
      const id = requireUuid(request.id);
      const { name, durationMinutes, slotStepMinutes, bufferBeforeMinutes, bufferAfterMinutes, policy, active } = request;
      // The parsed policy is what is stored: its reminders in their canonical form.
      const patch = parseInput(schedulingApi.servicePatch, presentFields({ name, durationMinutes, slotStepMinutes, bufferBeforeMinutes, bufferAfterMinutes, policy, active }));
      return writeTransaction(deps, undefined, async (transaction) => {
        const before = await findService(sequelize, id, transaction, true);
        if (!before) throw notFound('service');
        checkVersion('service', before.version, request.expectedVersion);
        await sequelize.query(
          `UPDATE services SET name = coalesce($2, name), duration_minutes = coalesce($3, duration_minutes),
                  slot_step_minutes = coalesce($4, slot_step_minutes), buffer_before_minutes = coalesce($5, buffer_before_minutes),
                  buffer_after_minutes = coalesce($6, buffer_after_minutes), policy = coalesce($7::jsonb, policy),
                  active = coalesce($8, active), version = version + 1, updated_at = now()
            WHERE id = $1`,
          {
            bind: [id, request.name?.trim() ?? null, request.durationMinutes ?? null, request.slotStepMinutes ?? null, request.bufferBeforeMinutes ?? null,
              request.bufferAfterMinutes ?? null, patch.policy ? JSON.stringify(patch.policy) : null, request.active ?? null],
            transaction,
          },
        );
        return changed(transaction, context, actor, before, id);
      });
    },
  };
}
