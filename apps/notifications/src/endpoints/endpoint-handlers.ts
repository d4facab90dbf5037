import { randomUUID } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import { notificationsV1, WEBHOOK_LIMITS, webhooksApi } from '@libs/contracts';
import { isTextPair, keysetPage, pageSize } from '@libs/cursor';
import { GrpcStatus, ProblemError, type CallContext } from '@libs/grpc';
import { checkVersion, FieldChecks, given, parseInput, presentFields, requireUuid } from '@libs/validation';
import { newSecret } from '@libs/webhooks';
import { actingUser } from '../acting-user';
import type { NotificationsDeps } from '../deps';
import { requirePermission, writeTransaction } from '../house';
import { checkedUrl } from './endpoint-url';
import { ENDPOINT_COLUMNS, findOwnedEndpoint, toEndpoint, type EndpointRow } from './endpoint-store';

/** How long the previous secret keeps signing after a rotation. */
const ROTATION_OVERLAP = '24 hours';
const USER_ID_MAX_LENGTH = 64;

export function endpointHandlers(deps: NotificationsDeps) {
  const { sequelize, cursors } = deps;

  const reread = async (id: string, transaction: Transaction, context: CallContext) =>
    toEndpoint(await findOwnedEndpoint(sequelize, requirePermission(context, 'webhooks:manage'), id, { transaction }));

  return {
    async createEndpoint(request: notificationsV1.CreateEndpointRequest, context: CallContext): Promise<notificationsV1.CreateEndpointResponse> {
      const actor = await actingUser(sequelize, context);
      const { idempotencyKey, ...fields } = request;
      const input = parseInput(webhooksApi.newEndpoint, { ...fields, description: given(fields.description) });
      const url = await checkedUrl(input.url, deps.policy, deps.resolve);
      const call = { method: 'CreateEndpoint', key: idempotencyKey, request: fields, codec: notificationsV1.CreateEndpointResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        // One user's creates wait for each other here, so two at once cannot both take the last place.
        await sequelize.query('SELECT 1 FROM recipients WHERE user_id = $1 FOR UPDATE', { bind: [actor.userId], transaction });
        const [{ owned }] = await sequelize.query<{ owned: number }>('SELECT count(*)::int AS owned FROM endpoints WHERE owner_id = $1', {
          bind: [actor.userId],
          type: QueryTypes.SELECT,
          transaction,
        });
        if (owned >= WEBHOOK_LIMITS.endpointsPerUser) {
          throw new ProblemError(
            GrpcStatus.FAILED_PRECONDITION,
            `a user may have at most ${WEBHOOK_LIMITS.endpointsPerUser} webhook endpoints; delete one first`,
            { type: 'endpoint_limit', limit: WEBHOOK_LIMITS.endpointsPerUser },
          );
        }
        const id = randomUUID();
        const secret = newSecret();
        await sequelize.query('INSERT INTO endpoints (id, owner_id, url, description, event_types) VALUES ($1, $2, $3, $4, $5)', {
          bind: [id, actor.userId, url, input.description ?? null, input.eventTypes],
          transaction,
        });
        await sequelize.query('INSERT INTO endpoint_secrets (endpoint_id, secret) VALUES ($1, $2)', { bind: [id, secret], transaction });
        return { endpoint: await reread(id, transaction, context), secret };
      });
    },

    async listEndpoints(request: notificationsV1.ListEndpointsRequest, context: CallContext): Promise<notificationsV1.ListEndpointsResponse> {
      const actor = await actingUser(sequelize, context);
      new FieldChecks().check(request.ownerId.length <= USER_ID_MAX_LENGTH, 'ownerId', `must be at most ${USER_ID_MAX_LENGTH} characters`).throwIfAny();
      const owner = request.ownerId || actor.userId;
      if (owner !== actor.userId) requirePermission(context, 'webhooks:any-owner');
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { endpointsOf: owner },
        limit: pageSize(request.limit, WEBHOOK_LIMITS.page),
        isPosition: isTextPair,
        positionOf: (row: EndpointRow) => [row.position, row.id],
        fetch: (after, limit) =>
          sequelize.query<EndpointRow>(
            `SELECT ${ENDPOINT_COLUMNS} FROM endpoints e
              WHERE e.owner_id = $1 AND ($2::timestamptz IS NULL OR (e.created_at, e.id) > ($2::timestamptz, $3::uuid))
              ORDER BY e.created_at, e.id LIMIT $4`,
            { bind: [owner, after?.[0] ?? null, after?.[1] ?? null, limit], type: QueryTypes.SELECT },
          ),
      });
      return { endpoints: page.rows.map(toEndpoint), nextCursor: page.nextCursor };
    },

    async getEndpoint(request: notificationsV1.GetEndpointRequest, context: CallContext): Promise<notificationsV1.GetEndpointResponse> {
      const actor = await actingUser(sequelize, context);
      return { endpoint: toEndpoint(await findOwnedEndpoint(sequelize, actor, requireUuid(request.id))) };
    },

    async updateEndpoint(request: notificationsV1.UpdateEndpointRequest, context: CallContext): Promise<notificationsV1.UpdateEndpointResponse> {
      const actor = await actingUser(sequelize, context);
      const id = requireUuid(request.id);
      const patch = parseInput(
        webhooksApi.endpointPatch,
        presentFields({
          url: request.url,
          description: request.description === undefined ? undefined : given(request.description) ?? null,
          eventTypes: request.eventTypesGiven ? request.eventTypes : undefined,
          enabled: request.enabled,
        }),
      );
      const url = patch.url === undefined ? undefined : await checkedUrl(patch.url, deps.policy, deps.resolve);
      return writeTransaction(deps, undefined, async (transaction) => {
        const before = await findOwnedEndpoint(sequelize, actor, id, { transaction, lock: true });
        checkVersion('webhook endpoint', before.version, request.expectedVersion);
        // Enabled again by its owner: whatever disabled it is forgotten, and its failures count afresh.
        const reenabled = patch.enabled === true && !before.enabled;
        await sequelize.query(
          `UPDATE endpoints SET url = coalesce($2, url),
                  description = CASE WHEN $3::boolean THEN $4 ELSE description END,
                  event_types = coalesce($5, event_types),
                  enabled = coalesce($6, enabled),
                  disabled_reason = CASE WHEN $6::boolean IS NOT NULL THEN NULL ELSE disabled_reason END,
                  failing_since = CASE WHEN $7::boolean THEN NULL ELSE failing_since END,
                  version = version + 1, updated_at = now()
            WHERE id = $1`,
          {
            bind: [id, url ?? null, patch.description !== undefined, patch.description ?? null, patch.eventTypes ?? null, patch.enabled ?? null, reenabled],
            transaction,
          },
        );
        return { endpoint: await reread(id, transaction, context) };
      });
    },

    async deleteEndpoint(request: notificationsV1.DeleteEndpointRequest, context: CallContext): Promise<notificationsV1.DeleteEndpointResponse> {
      const actor = await actingUser(sequelize, context);
      const id = requireUuid(request.id);
      return writeTransaction(deps, undefined, async (transaction) => {
        await findOwnedEndpoint(sequelize, actor, id, { transaction, lock: true });
        // Its secrets, deliveries and their attempts go with it; the events stay for other endpoints.
        await sequelize.query('DELETE FROM endpoints WHERE id = $1', { bind: [id], transaction });
        return {};
      });
    },

    async rotateSecret(request: notificationsV1.RotateSecretRequest, context: CallContext): Promise<notificationsV1.RotateSecretResponse> {
      const actor = await actingUser(sequelize, context);
      const { idempotencyKey, ...fields } = request;
      const id = requireUuid(fields.id);
      const call = { method: 'RotateSecret', key: idempotencyKey, request: fields, codec: notificationsV1.RotateSecretResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        await findOwnedEndpoint(sequelize, actor, id, { transaction, lock: true });
        const secret = newSecret();
        // The secret being replaced signs on for the overlap; one replaced earlier stops now, so at most two sign.
        const statements = [
          'DELETE FROM endpoint_secrets WHERE endpoint_id = $1 AND expires_at IS NOT NULL',
          `UPDATE endpoint_secrets SET expires_at = now() + interval '${ROTATION_OVERLAP}' WHERE endpoint_id = $1 AND expires_at IS NULL`,
          'UPDATE endpoints SET version = version + 1, updated_at = now() WHERE id = $1',
        ];
        for (const statement of statements) await sequelize.query(statement, { bind: [id], transaction });
        await sequelize.query('INSERT INTO endpoint_secrets (endpoint_id, secret) VALUES ($1, $2)', { bind: [id, secret], transaction });
        return { endpoint: await reread(id, transaction, context), secret };
      });
    },
  };
}
