/**
 * What the webhook scenarios share: endpoints registered for many users, and one real receiver behind all of them
 * that verifies every delivery with the published `standardwebhooks` package and keeps its lag (commit → receipt).
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { notificationsV1, ROLES, type Role } from '@libs/contracts';
import { callUnary, createClient, outgoingMetadata, type Actor } from '@libs/grpc';
import { actingAs, startReceiver, waitFor, type ReceivedDelivery } from '@libs/testing';
import { bearer, type BenchContext } from '../context';

/** One delivery as the receiver saw it: verified, with its lag from the change's commit to its receipt. */
export interface Receipt {
  path: string;
  webhookId: string;
  objectId?: string;
  lagMs: number;
  receivedAt: number;
}

type Answer = (delivery: ReceivedDelivery, res: http.ServerResponse) => void;

/**
 * A receiver for many endpoints, each on a path of its own (`/hooks/<n>`), verifying with that endpoint's secret.
 * Each path answers 204 unless `answers` names it.
 */
export async function benchReceiver() {
  const secrets = new Map<string, string>();
  const answers = new Map<string, Answer>();
  const receipts: Receipt[] = [];
  let forged = 0;
  const receiver = await startReceiver((delivery, res) => {
    const answer = answers.get(delivery.path);
    const secret = secrets.get(delivery.path);
    try {
      if (!secret) throw new Error('no endpoint here');
      const payload = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>) as {
        id: string;
        occurredAt: string;
        data: { object: { id?: string } };
      };
      const receivedAt = Date.now();
      receipts.push({ path: delivery.path, webhookId: payload.id, objectId: payload.data.object.id, lagMs: receivedAt - Date.parse(payload.occurredAt), receivedAt });
    } catch {
      forged += 1;
    }
    if (answer) answer(delivery, res);
    else res.writeHead(204).end();
  });
  let next = 0;
  return {
    receipts,
    forged: () => forged,
    /** A new path for an endpoint, answered by `answer` (204 unless given). */
    newPath(answer?: Answer): { path: string; url: string; secretIs(secret: string): void } {
      const path = `/hooks/${(next += 1)}`;
      if (answer) answers.set(path, answer);
      return { path, url: `http://127.0.0.1:${receiver.port}${path}`, secretIs: (secret) => secrets.set(path, secret) };
    },
    close: () => receiver.close(),
  };
}

export type BenchReceiver = Awaited<ReturnType<typeof benchReceiver>>;

/**
 * Endpoints of made-up users of one role, created through the notifications service's gRPC API as the gateway calls
 * it (an actor token signed with the development key, which the bench's services trust): the product's limit of endpoints per user holds, so many endpoints take many users.
 */
export function endpointMaker(context: BenchContext, receiver: BenchReceiver) {
  const client = createClient(notificationsV1.NotificationsServiceClient, context.grpcAddress('notifications'));
  const created: { actor: Actor; id: string }[] = [];
  return {
    /** A new made-up user of each role, as `newUser.bursar()`. */
    newUser: Object.fromEntries(ROLES.map((role) => [role, (): Actor => ({ userId: `bench-${role}-${randomUUID()}`, role })])) as Record<Role, () => Actor>,
    async create(actor: Actor, eventTypes: string[], answer?: Answer): Promise<{ id: string; path: string }> {
      const at = receiver.newPath(answer);
      const response = await callUnary(
        client.createEndpoint.bind(client),
        notificationsV1.CreateEndpointRequest.fromPartial({ url: at.url, eventTypes }),
        { metadata: outgoingMetadata({ acting: actingAs(actor, 'notifications', client.createEndpoint) }), timeoutMs: 30_000 },
      );
      at.secretIs(response.secret);
      const id = response.endpoint?.id ?? '';
      created.push({ actor, id });
      return { id, path: at.path };
    },
    /** Deletes every endpoint made, so later scenarios' events fan out to none of them. */
    async removeAll(): Promise<void> {
      for (const { actor, id } of created.splice(0)) {
        await callUnary(client.deleteEndpoint.bind(client), { id }, { metadata: outgoingMetadata({ acting: actingAs(actor, 'notifications', client.deleteEndpoint) }), timeoutMs: 30_000 });
      }
    },
    close: () => client.close(),
  };
}

/** A student record linked to `userId`, made with the admin key: the transactions of that student name the user. */
export async function studentOf(context: BenchContext, userId: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${context.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { ...bearer(context.keys.admin), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  };
  const registrationNumberId = await post('/api/v1/finance/registration-numbers', { number: `B${randomUUID().slice(0, 12)}` });
  return post('/api/v1/finance/students', { registrationNumberId, userId });
}

/** Waits until `count` receipts satisfy `which` (or the time runs out), and answers them. */
export async function receiptsOf(receiver: BenchReceiver, which: (receipt: Receipt) => boolean, count: number, timeoutMs = 120_000): Promise<Receipt[]> {
  return waitFor(
    `${count} webhook receipts`,
    async () => {
      const matching = receiver.receipts.filter(which);
      return matching.length >= count ? matching : undefined;
    },
    timeoutMs,
  ).catch(() => receiver.receipts.filter(which));
}

export const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
