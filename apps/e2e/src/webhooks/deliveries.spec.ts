import { Webhook } from 'standardwebhooks';
import { createApiClient, newIdempotencyKey, ok, verifyWebhook, type WebhookEvent } from '@libs/sdk';
import { startSystem, verifyingReceiver, waitFor, type ReceivedDelivery, type RunningSystem } from '@libs/testing';
import { checkWebhookAgainstContract } from '../contract';
import { validTransaction } from '../http';
import { atLeast, deliveryWhere, recordTransaction, webhookApi } from './webhook-helpers';

jest.setTimeout(60_000);

/**
 * Webhooks through the gateway, delivered by the notifications service to real receivers on this machine (the test
 * system allows loopback and http, as development does), each delivery checked by the published `standardwebhooks`
 * verifier, not by this project's code.
 */
describe('webhook deliveries through the gateway (real processes; receivers verify with standardwebhooks)', () => {
  let system: RunningSystem;
  const closers: (() => Promise<void>)[] = [];
  let receivers: Awaited<ReturnType<typeof verifyingReceiver>>[] = [];
  const receiverFor = async (...args: Parameters<typeof verifyingReceiver>) => {
    const receiver = await verifyingReceiver(...args);
    closers.push(() => receiver.close());
    receivers.push(receiver);
    return receiver;
  };

  // Every delivery of the test's receivers is what the document's `webhooks` says its event type sends.
  afterEach(async () => {
    const deliveries = receivers.flatMap((receiver) => receiver.deliveries);
    receivers = [];
    for (const delivery of deliveries) await checkWebhookAgainstContract(system.gatewayUrl, delivery.headers, JSON.parse(delivery.body.toString('utf8')));
  });

  beforeAll(async () => {
    // Three attempts, 300 ms then 600 ms apart, so a delivery's whole schedule runs within a test.
    system = await startSystem({ env: { notifications: { WEBHOOK_RETRY_SCHEDULE: '0s,300ms,600ms', WEBHOOK_TIMEOUT_MS: '1500' } } });
  }, 90_000);
  afterAll(async () => {
    for (const close of closers) await close();
    await system?.shutdown();
  });

  it('a bursar key creates an endpoint with the SDK; POST /api/v1/transactions delivers transaction.created, verified', async () => {
    const bursar = createApiClient({ baseUrl: system.gatewayUrl, apiKey: system.keys.bursar });
    let secret = '';
    const receiver = await receiverFor(() => [secret]);
    const created = await ok(
      bursar.POST('/api/v1/webhooks/endpoints', {
        params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
        body: { url: receiver.url, eventTypes: ['transaction.created'], description: 'ledger sync' },
      }),
    );
    secret = created.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({ url: receiver.url, eventTypes: ['transaction.created'], enabled: true, description: 'ledger sync' });

    const transaction = await ok(bursar.POST('/api/v1/transactions', { body: validTransaction({ payee: 'Webhook test' }) }));
    const [delivery] = await atLeast('the transaction.created delivery', 1, () => receiver.verified);
    expect(receiver.forged).toEqual([]);
    expect(delivery).toMatchObject({
      type: 'transaction.created',
      data: { object: { type: 'transaction', id: transaction.id, version: transaction.version } },
    });
    expect(delivery.headers['content-type']).toMatch(/^application\/json/);
    expect(delivery.headers['user-agent']).toMatch(/\S/);

    // The thin payload names where to read the transaction; the receiver reads it with its own key.
    const url = delivery.data.object.url ?? '';
    expect(new URL(url).pathname).toBe(`/api/v1/transactions/${transaction.id}`);
    expect((await webhookApi(system, system.keys.bursar).read(url)).body).toMatchObject({ id: transaction.id, payee: 'Webhook test' });

    // The SDK's verifier accepts the same bytes, and types the event.
    const raw = receiver.deliveries[0];
    const event: WebhookEvent = verifyWebhook(secret, raw.headers, raw.body);
    expect(event.type).toBe('transaction.created');
    expect(event.id).toBe(raw.headers['webhook-id']);

    // The deliveries log shows it with its one attempt.
    const log = await ok(bursar.GET('/api/v1/webhooks/endpoints/{id}/deliveries', { params: { path: { id: created.id } } }));
    expect(log.deliveries).toEqual([
      expect.objectContaining({ eventId: event.id, eventType: 'transaction.created', status: 'delivered', attemptCount: 1, nextAttemptAt: null }),
    ]);
    expect(log.deliveries[0].attempts).toEqual([expect.objectContaining({ status: 204, error: null, durationMs: expect.any(Number) })]);
  });

  it('sends a test ping, to a reader too, whose "*" endpoint gets nothing else', async () => {
    const reader = webhookApi(system, system.keys.reader);
    let secret = '';
    const receiver = await receiverFor(() => [secret]);
    const created = await reader.create({ url: receiver.url, eventTypes: ['*'] });
    expect(created.status).toBe(201);
    secret = created.body.secret;

    const ping = await reader.test(created.body.id);
    expect(ping.status).toBe(202);
    expect(ping.body).toMatchObject({ endpointId: created.body.id, eventType: 'webhook.ping', status: 'pending' });
    const [delivery] = await atLeast('the ping', 1, () => receiver.verified);
    expect(delivery).toMatchObject({ id: ping.body.eventId, type: 'webhook.ping', data: { object: { type: 'webhook_endpoint', id: created.body.id } } });
    expect((await reader.read(delivery.data.object.url ?? '')).body).toMatchObject({ id: created.body.id });
    expect(await deliveryWhere(reader, created.body.id, (d) => d.id === ping.body.id && d.status === 'delivered')).toBeDefined();

    // A finance change: an event's deliveries are all written when it is stored, so once an admin's endpoint has
    // it, a reader's would have too. A reader may not read transactions: theirs gets nothing.
    let adminSecret = '';
    const adminReceiver = await receiverFor(() => [adminSecret]);
    adminSecret = (await webhookApi(system, system.keys.admin).create({ url: adminReceiver.url, eventTypes: ['transaction.created'] })).body.secret;
    const transaction = await recordTransaction(system, 'Not for readers');
    await waitFor('the admin’s delivery', async () => adminReceiver.verified.find((d) => d.data.object.id === transaction.id));
    expect((await reader.deliveries(created.body.id)).body.deliveries.map((d: { eventType: string }) => d.eventType)).toEqual(['webhook.ping']);
    expect(receiver.verified.map((d) => d.type)).toEqual(['webhook.ping']);
  });

  it('rotates the secret: the new one is shown once, and both sign every delivery for the overlap', async () => {
    const admin = webhookApi(system, system.keys.admin);
    let rotatedSecret = '';
    const receiver = await receiverFor(() => [rotatedSecret]);
    const created = await admin.create({ url: receiver.url, eventTypes: ['webhook.ping'] });
    const firstSecret = created.body.secret as string;

    const rotated = await admin.rotate(created.body.id);
    expect(rotated.status).toBe(200);
    rotatedSecret = rotated.body.secret;
    expect(rotatedSecret).toMatch(/^whsec_/);
    expect(rotatedSecret).not.toBe(firstSecret);
    const overlapHours = (Date.parse(rotated.body.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
    expect(rotated.headers.get('etag')).toBe(`"${rotated.body.version}"`);
    expect((await admin.get(created.body.id)).body).not.toHaveProperty('secret');

    await admin.test(created.body.id);
    await atLeast('the ping after the rotation', 1, () => receiver.verified);
    const raw = receiver.deliveries[0] as ReceivedDelivery;
    const headers = raw.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    // Each secret alone verifies it: a receiver may switch any time within the 24 hours.
    expect(new Webhook(firstSecret).verify(raw.body, headers)).toMatchObject({ type: 'webhook.ping' });
    expect(new Webhook(rotatedSecret).verify(raw.body, headers)).toMatchObject({ type: 'webhook.ping' });
  });

  it('logs every failed attempt; a manual retry sends the same event again and it is delivered', async () => {
    const bursar = webhookApi(system, system.keys.bursar);
    let secret = '';
    let answer = 500;
    const receiver = await receiverFor(
      () => [secret],
      (_delivery, res) => void res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 500 ? 'database locked' : ''),
    );
    const created = await bursar.create({ url: receiver.url, eventTypes: ['webhook.ping'] });
    secret = created.body.secret;
    const ping = await bursar.test(created.body.id);

    const failed = await deliveryWhere(bursar, created.body.id, (d) => d.id === ping.body.id && d.status === 'failed');
    expect(failed.attemptCount).toBe(3);
    expect(failed.nextAttemptAt).toBeNull();
    for (const attempt of failed.attempts) expect(attempt).toMatchObject({ status: 500, error: null, responseExcerpt: 'database locked' });
    expect((await bursar.deliveries(created.body.id, '?status=failed')).body.deliveries.map((d: { id: string }) => d.id)).toEqual([ping.body.id]);
    expect((await bursar.deliveries(created.body.id, '?status=delivered')).body.deliveries).toEqual([]);

    answer = 204;
    const retried = await bursar.retry(ping.body.id);
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: ping.body.id, status: 'pending', attemptCount: 3 });
    const delivered = await deliveryWhere(bursar, created.body.id, (d) => d.id === ping.body.id && d.status === 'delivered');
    expect(delivered.attempts.map((attempt: { status: number }) => attempt.status)).toEqual([500, 500, 500, 204]);
    // Every attempt carried the same webhook-id: receivers deduplicate on it.
    expect(new Set(receiver.deliveries.map((d) => d.headers['webhook-id']))).toEqual(new Set([ping.body.eventId]));
    expect(receiver.verified).toHaveLength(4);
  });

  it('recovers: every event since a time that the endpoint would have received is sent again', async () => {
    const bursar = webhookApi(system, system.keys.bursar);
    let secret = '';
    const receiver = await receiverFor(() => [secret]);
    const created = await bursar.create({ url: receiver.url, eventTypes: ['transaction.created'] });
    secret = created.body.secret;
    const since = new Date().toISOString();
    for (const payee of ['Recovered one', 'Recovered two']) await recordTransaction(system, payee);
    const firstIds = (await atLeast('the two deliveries', 2, () => receiver.verified)).map((d) => d.id);

    const recovered = await bursar.recover(created.body.id, since);
    expect(recovered.status).toBe(202);
    expect(recovered.body).toEqual({ queued: 2 });
    const all = await atLeast('the two deliveries again', 4, () => receiver.verified);
    expect(all.slice(2).map((d) => d.id).sort()).toEqual(firstIds.sort());

    // The log, a page at a time: one delivery per event, newest first.
    const first = await bursar.deliveries(created.body.id, '?limit=1');
    expect(first.body.deliveries).toHaveLength(1);
    const second = await bursar.deliveries(created.body.id, `?limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.deliveries).toHaveLength(1);
    expect(second.body.nextCursor).toBeUndefined();
    expect([...first.body.deliveries, ...second.body.deliveries].map((d: { eventId: string }) => d.eventId).sort()).toEqual(firstIds.sort());

    // Older than the retention: refused, naming the field.
    const tooOld = await bursar.recover(created.body.id, new Date(Date.now() - 8 * 86_400_000).toISOString());
    expect(tooOld.status).toBe(400);
    expect(tooOld.body.errors).toEqual([expect.objectContaining({ field: 'since' })]);
  });
});
