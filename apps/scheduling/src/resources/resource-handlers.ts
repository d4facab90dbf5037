import { QueryTypes, type Transaction } from 'sequelize';
import { SCHEDULING_LIMITS, schedulingApi, schedulingV1 } from '@libs/contracts';
import { requirePermission, type Actor, type CallContext } from '@libs/grpc';
import { recordEvent, writeTransaction } from '@libs/outbox';
import { isText, keysetPage, pageSize } from '@libs/cursor';
import { checkVersion, FieldChecks, notFound, parseInput, presentFields, requireUuid } from '@libs/validation';
import { isStaff } from '../access';
import { findLocation, PREMISE_ID } from '../locations/location-store';
import type { SchedulingDeps } from '../scheduling-deps';
import { findResource, listResources, toResource, type ResourceRow } from './resource-store';

/** Ids as stored: lower case (the API's schema has refused repeats). */
const stored = (ids: readonly string[] | undefined) => ids?.map((id) => id.toLowerCase());

export function resourceHandlers(deps: SchedulingDeps) {
  const { sequelize, cursors } = deps;

  async function replaceLinks(transaction: Transaction, id: string, links: { serviceIds?: string[]; staffUserIds?: string[] }) {
    if (links.serviceIds) {
      const found = await sequelize.query<{ id: string }>('SELECT id::text FROM services WHERE id = ANY($1::uuid[]) FOR KEY SHARE', {
        bind: [links.serviceIds],
        type: QueryTypes.SELECT,
        transaction,
      });
      const checks = new FieldChecks();
      links.serviceIds.forEach((serviceId, i) => checks.check(found.some((row) => row.id === serviceId), `serviceIds[${i}]`, 'does not exist'));
      checks.throwIfAny();
      await sequelize.query('DELETE FROM resource_services WHERE resource_id = $1', { bind: [id], transaction });
      await sequelize.query('INSERT INTO resource_services (resource_id, service_id) SELECT $1, unnest($2::uuid[])', { bind: [id, links.serviceIds], transaction });
    }
    if (links.staffUserIds) {
      await sequelize.query('DELETE FROM staffing WHERE resource_id = $1', { bind: [id], transaction });
      await sequelize.query('INSERT INTO staffing (resource_id, user_id) SELECT $1, unnest($2::text[])', { bind: [id, links.staffUserIds], transaction });
    }
  }

  async function changed(transaction: Transaction, context: CallContext, actor: Actor, before: ResourceRow | undefined, id: string) {
    const after = (await findResource(sequelize, id, transaction)) as ResourceRow;
    await recordEvent(sequelize, transaction, context, actor, {
      action: before ? 'resource.updated' : 'resource.created',
      entityType: 'resource',
      entityIds: [id],
      before: before && toResource(before, true),
      after: toResource(after, true),
    });
    return { resource: toResource(after, true) };
  }

  return {
    async listResources(request: schedulingV1.ListResourcesRequest, context: CallContext): Promise<schedulingV1.ListResourcesResponse> {
      const actor = requirePermission(context, 'scheduling:browse');
      new FieldChecks().check(request.locationId === '' || PREMISE_ID.test(request.locationId), 'locationId', 'must be a premise id').throwIfAny();
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { locationId: request.locationId },
        limit: pageSize(request.limit, SCHEDULING_LIMITS.page),
        isPosition: isText,
        positionOf: (row: ResourceRow) => row.id,
        fetch: (after, limit) => listResources(sequelize, { locationId: request.locationId, after, limit }),
      });
      return { resources: page.rows.map((row) => toResource(row, isStaff(actor))), nextCursor: page.nextCursor };
    },

    async getResource(request: schedulingV1.GetResourceRequest, context: CallContext): Promise<schedulingV1.GetResourceResponse> {
      const actor = requirePermission(context, 'scheduling:browse');
      const row = await findResource(sequelize, requireUuid(request.id));
      if (!row) throw notFound('resource');
      return { resource: toResource(row, isStaff(actor)) };
    },

    async createResource(request: schedulingV1.CreateResourceRequest, context: CallContext): Promise<schedulingV1.CreateResourceResponse> {
      const actor = requirePermission(context, 'scheduling:configure');
      const input = parseInput(schedulingApi.newResource, request.input ?? schedulingV1.ResourceInput.fromPartial({}));
      const [serviceIds, staffUserIds] = [stored(input.serviceIds) ?? [], stored(input.staffUserIds) ?? []];
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'CreateResource', key: idempotencyKey, request: fields, codec: schedulingV1.CreateResourceResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        if (!(await findLocation(sequelize, input.locationId, transaction))) {
          new FieldChecks().check(false, 'locationId', 'is not a bookable location').throwIfAny();
        }
        const [{ id }] = await sequelize.query<{ id: string }>(
          'INSERT INTO resources (location_id, kind, name) VALUES ($1, $2, $3) RETURNING id::text',
          { bind: [input.locationId, input.kind, input.name.trim()], type: QueryTypes.SELECT, transaction },
        );
        await replaceLinks(transaction, id, { serviceIds, staffUserIds });
        return changed(transaction, context, actor, undefined, id);
      });
    },

    async updateResource(request: schedulingV1.UpdateResourceRequest, context: CallContext): Promise<schedulingV1.UpdateResourceResponse> {
      const actor = requirePermission(context, 'scheduling:configure');
      const id = requireUuid(request.id);
      const changes = presentFields({ name: request.name, active: request.active, serviceIds: request.serviceIds?.ids, staffUserIds: request.staffUserIds?.ids });
      parseInput(schedulingApi.resourcePatch, changes);
      const [serviceIds, staffUserIds] = [stored(changes.serviceIds), stored(changes.staffUserIds)];
      return writeTransaction(deps, undefined, async (transaction) => {
        const before = await findResource(sequelize, id, transaction, true);
        if (!before) throw notFound('resource');
        checkVersion('resource', before.version, request.expectedVersion);
        await sequelize.query(
          `UPDATE resources SET name = coalesce($2, name), active = coalesce($3, active), version = version + 1, updated_at = now() WHERE id = $1`,
          { bind: [id, request.name?.trim() ?? null, request.active ?? null], transaction },
        );
        await replaceLinks(transaction, id, { serviceIds, staffUserIds });
        return changed(transaction, context, actor, before, id);
      });
    },
  };
}
