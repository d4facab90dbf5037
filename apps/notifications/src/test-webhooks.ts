/**
 * What the notifications specs share: the service's gRPC API as the gateway calls it, events published the way
 * finance's and scheduling's outbox relays publish them, and receivers that verify every
 * delivery with the published Standard Webhooks verifier (libs/testing).
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { busTopology, ConfirmPublisher, messageHeaders, TopologyKeeper, type EventStream } from '@libs/bus';
import { AUDIT_SCHEMA_VERSION, notificationsV1, type AuditEvent } from '@libs/contracts';
import { callUnary, createClient, outgoingMetadata, type Actor, type UnaryMethod } from '@libs/grpc';
import { actingAs, AMQP_URL, signedMessage, type RunningSystem } from '@libs/testing';

type Client = notificationsV1.NotificationsServiceClient;

/** The service's API for one actor, as the gateway calls it: signed, with a deadline. */
export function apiFor(system: RunningSystem, actor: Actor, instance = 1) {
  const client: Client = createClient(notificationsV1.NotificationsServiceClient, system.grpcAddress('notifications', instance));
  const call = <Req, Res>(method: UnaryMethod<Req, Res>, request: Req) =>
    callUnary(method.bind(client), request, { metadata: outgoingMetadata({ acting: actingAs(actor, 'notifications', method) }), timeoutMs: 10_000 });
  return {
    createEndpoint: (request: Partial<notificationsV1.CreateEndpointRequest>) =>
      call(client.createEndpoint, notificationsV1.CreateEndpointRequest.fromPartial({ eventTypes: ['*'], ...request })),
    getEndpoint: (id: string) => call(client.getEndpoint, { id }),
    updateEndpoint: (request: Partial<notificationsV1.UpdateEndpointRequest>) =>
      call(client.updateEndpoint, notificationsV1.UpdateEndpointRequest.fromPartial(request)),
    rotateSecret: (id: string) => call(client.rotateSecret, { id, idempotencyKey: '' }),
    testEndpoint: (id: string) => call(client.testEndpoint, { id, idempotencyKey: '' }),
    listDeliveries: (endpointId: string, status = '') =>
      call(client.listDeliveries, notificationsV1.ListDeliveriesRequest.fromPartial({ endpointId, status, limit: 100 })),
    retryDelivery: (id: string) => call(client.retryDelivery, { id, idempotencyKey: '' }),
    recoverEvents: (endpointId: string, since: string) => call(client.recoverEvents, { endpointId, since, idempotencyKey: '' }),
    listEventTypes: () => call(client.listEventTypes, {}),
    close: () => client.close(),
  };
}

export type NotificationsApi = ReturnType<typeof apiFor>;

export const actorOf = (role: string): Actor => ({ userId: `${role}-${randomUUID().slice(0, 8)}`, role });

/** A change as finance or scheduling records it; `subjects` absent is an event of the older schema. */
export function eventOf(change: {
  action: string;
  entityType: string;
  id?: string;
  subjects?: string[];
  after?: Record<string, unknown>;
}): AuditEvent & { subjects?: string[] } {
  const id = change.id ?? randomUUID();
  return {
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    action: change.action,
    entityType: change.entityType,
    entityIds: [id],
    actor: { userId: 'spec', role: 'admin' },
    requestId: 'notifications-spec',
    schemaVersion: AUDIT_SCHEMA_VERSION,
    before: null,
    after: { id, version: 1, ...change.after },
    ...(change.subjects ? { subjects: change.subjects } : {}),
  };
}

/**
 * Publishes events as the stream's producer's outbox relay does (libs/outbox): JSON of the event, routing key its
 * action, messageId its eventId, signed with the run's key for that producer, confirmed by the broker, mandatory
 * and persistent.
 */
export async function startPublisher(system: RunningSystem, stream: EventStream) {
  const connection = await connect(AMQP_URL);
  const keeper = new TopologyKeeper(busTopology(`${system.namespace}.`, stream), [], 'publisher');
  await keeper.attach(connection);
  const publisher = new ConfirmPublisher();
  publisher.attach(await connection.createConfirmChannel());
  const send = (event: AuditEvent) => {
    const { routingKey, content, options } = signedMessage(system, stream, event);
    return publisher.publish(keeper.topology.exchange, routingKey, content, {
      ...options,
      headers: { ...messageHeaders({ requestId: event.requestId }), ...options.headers },
    });
  };
  return {
    publish: async (...events: AuditEvent[]): Promise<void> => void (await Promise.all(events.map(send))),
    /** The same event again, as a relay sends it after a lost confirm. */
    republish: send,
    close: () => connection.close(),
  };
}

export { verifyingReceiver, type VerifiedDelivery } from '@libs/testing';
