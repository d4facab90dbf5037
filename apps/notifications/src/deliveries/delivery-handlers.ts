import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { notificationsV1, PING_OBJECT, WEBHOOK_LIMITS, webhooksApi } from '@libs/contracts';
import { isTextPair, keysetPage, pageSize } from '@libs/cursor';
import { GrpcStatus, ProblemError, RpcError, type CallContext } from '@libs/grpc';
import { notFound, parseInput, requireUuid } from '@libs/validation';
import { mayManage, REACH_BINDS } from '../access';
import { actingUser } from '../acting-user';
import type { NotificationsDeps } from '../deps';
import { findOwnedEndpoint } from '../endpoints/endpoint-store';
import { reaches } from '../events/reach';
import { writeTransaction } from '../house';
import { DELIVERY_COLUMNS, DELIVERY_FROM, DUE_AGAIN, findDelivery, withAttempts, type DeliveryRow } from './delivery-store';

const DAY_MS = 24 * 60 * 60 * 1000;

export function deliveryHandlers(deps: NotificationsDeps) {
  const { sequelize, cursors } = deps;

  return {
    async listDeliveries(request: notificationsV1.ListDeliveriesRequest, context: CallContext): Promise<notificationsV1.ListDeliveriesResponse> {
      const actor = await actingUser(sequelize, context);
      const endpointId = requireUuid(request.endpointId, 'endpointId');
      const status = request.status === '' ? undefined : parseInput(webhooksApi.deliveryStatus, request.status);
      await findOwnedEndpoint(sequelize, actor, endpointId);
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { deliveriesOf: endpointId, status: status ?? null },
        limit: pageSize(request.limit, WEBHOOK_LIMITS.page),
        isPosition: isTextPair,
        positionOf: (row: DeliveryRow) => [row.position, row.id],
        fetch: (after, limit) =>
          sequelize.query<DeliveryRow>(
            `SELECT ${DELIVERY_COLUMNS} FROM ${DELIVERY_FROM}
              WHERE d.endpoint_id = $1 AND ($2::text IS NULL OR d.status = $2)
                AND ($3::timestamptz IS NULL OR (d.created_at, d.id) < ($3::timestamptz, $4::uuid))
              ORDER BY d.created_at DESC, d.id DESC LIMIT $5`,
            { bind: [endpointId, status ?? null, after?.[0] ?? null, after?.[1] ?? null, limit], type: QueryTypes.SELECT },
          ),
      });
      return { deliveries: await withAttempts(sequelize, page.rows), nextCursor: page.nextCursor };
    },

    /** Due again now, with the whole schedule ahead of it; the attempts so far stay in its log. */
    async retryDelivery(request: notificationsV1.RetryDeliveryRequest, context: CallContext): Promise<notificationsV1.RetryDeliveryResponse> {
      const actor = await actingUser(sequelize, context);
      const { idempotencyKey, ...fields } = request;
      const id = requireUuid(fields.id);
      const call = { method: 'RetryDelivery', key: idempotencyKey, request: fields, codec: notificationsV1.RetryDeliveryResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        const delivery = await findDelivery(sequelize, id, transaction);
        if (!delivery || !mayManage(actor, delivery.owner_id)) throw notFound('webhook delivery');
        await sequelize.query(
          `UPDATE deliveries SET ${DUE_AGAIN} WHERE id = $1`,
          { bind: [id], transaction },
        );
        const [retried] = await withAttempts(sequelize, [(await findDelivery(sequelize, id, transaction)) as DeliveryRow], transaction);
        return { delivery: retried };
      });
    },

    async recoverEvents(request: notificationsV1.RecoverEventsRequest, context: CallContext): Promise<notificationsV1.RecoverEventsResponse> {
      const actor = await actingUser(sequelize, context);
      const { idempotencyKey, ...fields } = request;
      const endpointId = requireUuid(fields.endpointId, 'endpointId');
      const { since } = parseInput(webhooksApi.recovery, { since: fields.since });
      if (Date.parse(since) < Date.now() - WEBHOOK_LIMITS.retentionDays * DAY_MS) {
        throw RpcError.invalidArgument('since', `must be at most ${WEBHOOK_LIMITS.retentionDays} days ago (events are kept that long)`);
      }
      const call = { method: 'RecoverEvents', key: idempotencyKey, request: fields, codec: notificationsV1.RecoverEventsResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        await findOwnedEndpoint(sequelize, actor, endpointId, { transaction, lock: true });
        // Delivered or not before, each is due again now with the whole schedule ahead: receivers deduplicate.
        const queued = await sequelize.query(
          `INSERT INTO deliveries (id, endpoint_id, event_id, next_attempt_at)
           SELECT gen_random_uuid(), e.id, ev.event_id, now()
             FROM events ev, endpoints e JOIN recipients r ON r.user_id = e.owner_id
            WHERE e.id = $endpointId::uuid AND ev.occurred_at >= $since::timestamptz AND ev.source <> 'webhooks'
              AND ${reaches({ type: 'ev.type', source: 'ev.source', subjects: 'ev.subjects' })}
           ON CONFLICT (endpoint_id, event_id)
              DO UPDATE SET ${DUE_AGAIN}
           RETURNING 1`,
          { bind: { ...REACH_BINDS, endpointId, since }, type: QueryTypes.SELECT, transaction },
        );
        return { queued: queued.length };
      });
    },

    /** A webhook.ping event, stored like any other and delivered to this endpoint alone. */
    async testEndpoint(request: notificationsV1.TestEndpointRequest, context: CallContext): Promise<notificationsV1.TestEndpointResponse> {
      const actor = await actingUser(sequelize, context);
      const { idempotencyKey, ...fields } = request;
      const id = requireUuid(fields.id);
      const call = { method: 'TestEndpoint', key: idempotencyKey, request: fields, codec: notificationsV1.TestEndpointResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        const endpoint = await findOwnedEndpoint(sequelize, actor, id, { transaction, lock: true });
        if (!endpoint.enabled) {
          throw new ProblemError(GrpcStatus.FAILED_PRECONDITION, 'the endpoint is disabled; enable it first', { type: 'endpoint_disabled' });
        }
        const eventId = randomUUID();
        const object = { type: PING_OBJECT.type, id, url: deps.publicApiUrl + PING_OBJECT.path(id) };
        await sequelize.query(
          "INSERT INTO events (event_id, type, source, occurred_at, object) VALUES ($1, 'webhook.ping', 'webhooks', now(), $2::jsonb)",
          { bind: [eventId, JSON.stringify(object)], transaction },
        );
        const deliveryId = randomUUID();
        await sequelize.query('INSERT INTO deliveries (id, endpoint_id, event_id, next_attempt_at) VALUES ($1, $2, $3, now())', {
          bind: [deliveryId, id, eventId],
          transaction,
        });
        const [delivery] = await withAttempts(sequelize, [(await findDelivery(sequelize, deliveryId, transaction)) as DeliveryRow], transaction);
        return { delivery };
      });
    },
  };
}

