import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { EVENT_TYPES, financeV1, type EventTypeDeclaration } from '@libs/contracts';
import { callUnary, createClient, GrpcStatus, outgoingMetadata, problemOf, type ServiceError } from '@libs/grpc';
import { actingAs, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import {
  actorOf,
  apiFor,
  eventOf,
  startPublisher,
  verifyingReceiver,
  type NotificationsApi,
  type VerifiedDelivery,
} from './test-webhooks';

/** Shortened so a delivery's whole schedule runs within a test: three attempts, 300 ms then 600 ms apart. */
const SCHEDULE = [0, 300, 600];

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the call was not refused');
    },
    (error: ServiceError) => ({ code: error.code, details: error.details, problem: problemOf(error) }),
  );

describe('the notifications service (real processes, PostgreSQL and RabbitMQ; receivers verify with standardwebhooks)', () => {
  let system: RunningSystem;
  let finance: Awaited<ReturnType<typeof startPublisher>>;
  let scheduling: Awaited<ReturnType<typeof startPublisher>>;
  let identity: Awaited<ReturnType<typeof startPublisher>>;
  const apis: NotificationsApi[] = [];
  const api = (role: string) => {
    const actor = actorOf(role);
    const made = apiFor(system, actor);
    apis.push(made);
    return Object.assign(made, { actor });
  };

  beforeAll(async () => {
    system = await startSystem({
      only: ['finance', 'notifications'],
      env: {
        notifications: { WEBHOOK_RETRY_SCHEDULE: '0s,300ms,600ms', WEBHOOK_TIMEOUT_MS: '1500' },
      },
    });
    finance = await startPublisher(system, 'finance');
    scheduling = await startPublisher(system, 'scheduling');
    identity = await startPublisher(system, 'identity');
  }, 90_000);

  afterAll(async () => {
    for (const made of apis) made.close();
    await finance?.close();
    await scheduling?.close();
    await identity?.close();
    await system?.shutdown();
  });

  it("delivers finance's transaction.created to a bursar's endpoint, signed so standardwebhooks verifies it, with the thin payload", async () => {
    const bursar = api('bursar');
    let secret = '';
    const receiver = await verifyingReceiver(() => [secret]);
    try {
      const created = await bursar.createEndpoint({ url: receiver.url, eventTypes: ['transaction.created'] });
      secret = created.secret;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.endpoint).toMatchObject({ url: receiver.url, enabled: true, ownerId: bursar.actor.userId, eventTypes: ['transaction.created'] });

      const client = createClient(financeV1.FinanceServiceClient, system.grpcAddress('finance'));
      const { transaction } = await callUnary(
        client.createTransaction.bind(client),
        financeV1.CreateTransactionRequest.fromPartial({
          input: { date: '2026-09-01', categoryId: '00000000-0000-4000-8000-00000000c001', payee: 'Registrar', amount: '1000', accountId: '00000000-0000-4000-8000-00000000a001' },
        }),
        { metadata: outgoingMetadata({ acting: actingAs(bursar.actor, 'finance', client.createTransaction) }), timeoutMs: 10_000 },
      );
      client.close();
      const [delivery] = await waitFor('the delivery', async () => (receiver.verified.length > 0 ? receiver.verified : undefined));
      expect(delivery).toMatchObject({
        type: 'transaction.created',
        data: { object: { type: 'transaction', id: transaction?.id, version: 1, url: `http://127.0.0.1:3000/api/v1/transactions/${transaction?.id}` } },
      });
      expect(delivery.headers['webhook-id']).toBe(delivery.id);
      expect(delivery.headers['user-agent']).toMatch(/^clinical-finance-webhooks\//);
      expect(receiver.forged).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a URL the address policy forbids, naming the rule (OUT_OF_RANGE: a 422), and an eleventh endpoint (FAILED_PRECONDITION: a 409)', async () => {
    const reader = api('reader');
    for (const [url, rule] of [
      ['http://169.254.169.254/latest/meta-data', 'link-local'],
      ['http://[fd00:ec2::254]/', 'link-local'],
      ['http://10.1.2.3/hooks', 'private'],
      ['http://100.64.0.1/hooks', 'cgnat'],
      ['http://[fc00::1]/hooks', 'unique-local'],
      ['http://0.0.0.0:8080/', 'unspecified'],
      ['ftp://example.org/', 'scheme'],
      ['https://user:pass@example.org/', 'credentials'],
    ]) {
      expect(await refusal(reader.createEndpoint({ url }))).toMatchObject({
        code: GrpcStatus.OUT_OF_RANGE,
        problem: { type: 'webhook_url_refused', rule },
      });
    }
    expect(await refusal(reader.createEndpoint({ url: 'not a url' }))).toMatchObject({ code: GrpcStatus.OUT_OF_RANGE, problem: { rule: 'malformed' } });
    expect(await refusal(reader.createEndpoint({ url: 'http://127.0.0.1/x', eventTypes: ['transaction.exploded'] }))).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    for (let i = 0; i < 10; i += 1) await reader.createEndpoint({ url: `http://127.0.0.1:9/hooks/${i}` });
    expect(await refusal(reader.createEndpoint({ url: 'http://127.0.0.1:9/hooks/10' }))).toMatchObject({
      code: GrpcStatus.FAILED_PRECONDITION,
      problem: { type: 'endpoint_limit', limit: 10 },
    });
  });

  it('walks every event type for every role: delivered exactly when the owner could read the entity through the API (identity events: their own account)', async () => {
    const roles = ['admin', 'bursar', 'student', 'clinician', 'reader'] as const;
    type WalkRole = (typeof roles)[number];
    /**
     * What each role reads of each kind of entity through the API, written out apart from the reach table so that
     * this walk fails when the table is wrong: every record ('all'), only those that name them ('named': a student's
     * own finance records and appointments, a clinician's staffed resources), or none. From the routes' permissions
     * (libs/contracts/src/api/access.ts): finance:read (student narrowed), finance:records:read, appointments:read
     * (student and clinician narrowed), scheduling:browse (every role, whole).
     */
    const financeOwn = { admin: 'all', bursar: 'all', student: 'named', clinician: 'none', reader: 'none' } as const;
    const financeRecords = { admin: 'all', bursar: 'all', student: 'none', clinician: 'none', reader: 'none' } as const;
    const browsed = { admin: 'all', bursar: 'all', student: 'all', clinician: 'all', reader: 'all' } as const;
    const READS: Record<string, Record<WalkRole, 'all' | 'named' | 'none'>> = {
      transaction: financeOwn,
      payment: financeOwn,
      financial_statement: financeOwn,
      student: financeOwn,
      account: financeRecords,
      category: financeRecords,
      registration_number: financeRecords,
      appointment: { admin: 'all', bursar: 'none', student: 'named', clinician: 'named', reader: 'none' },
      location: browsed,
      service: browsed,
      resource: browsed,
      schedule: browsed,
      block: browsed,
      // An account's own identity events reach its owner (their subject), every account's an admin.
      user: { admin: 'all', bursar: 'named', student: 'named', clinician: 'named', reader: 'named' },
      api_key: { admin: 'all', bursar: 'named', student: 'named', clinician: 'named', reader: 'named' },
    };
    const owners = Object.fromEntries(roles.map((role) => [role, api(role)])) as Record<WalkRole, ReturnType<typeof api>>;
    const receivers = new Map<string, Awaited<ReturnType<typeof verifyingReceiver>> & { endpointId: string }>();
    try {
      for (const role of roles) {
        let secret = '';
        const receiver = await verifyingReceiver(() => [secret]);
        const { endpoint, secret: given } = await owners[role].createEndpoint({ url: receiver.url });
        secret = given;
        receivers.set(role, Object.assign(receiver, { endpointId: endpoint?.id ?? '' }));
      }
      // A user event shows the account as identity.events does (the recipients read model takes nothing less).
      const snapshotOf = (entityType: string) =>
        entityType === 'user' ? { email: `walk-${randomUUID()}@example.org`, role: 'reader', emailVerified: true } : undefined;
      // Every owner but the admin (whose reach names no one), so that each role's 'named' reach is walked.
      const named = roles.filter((role) => role !== 'admin').map((role) => owners[role].actor.userId);
      // Of every type, one event naming those owners among its subjects, and one naming someone else.
      const walk = (Object.entries(EVENT_TYPES) as [string, EventTypeDeclaration][])
        .filter(([, { source, entityType }]) => source !== 'webhooks' && entityType)
        .flatMap(([action, { source, entityType = '' }]) =>
          [named, ['someone-else']].map((subjects) => ({ source, entityType, subjects, event: eventOf({ action, entityType, subjects, after: snapshotOf(entityType) }) })),
        );
      expect(new Set(walk.map((step) => step.entityType))).toEqual(new Set(Object.keys(READS)));
      await finance.publish(...walk.filter((step) => step.source === 'finance').map((step) => step.event));
      await scheduling.publish(...walk.filter((step) => step.source === 'scheduling').map((step) => step.event));
      await identity.publish(...walk.filter((step) => step.source === 'identity').map((step) => step.event));
      await owners.reader.testEndpoint(receivers.get('reader')?.endpointId ?? '');

      const readable = (role: WalkRole, step: (typeof walk)[number]) => {
        const reads = READS[step.entityType][role];
        return reads === 'all' || (reads === 'named' && step.subjects === named);
      };
      const expected = Object.fromEntries(
        roles.map((role) => [role, walk.filter((step) => readable(role, step)).map((step) => `${step.event.action} ${step.event.eventId}`).sort()]),
      );
      const received = (role: string) =>
        (receivers.get(role)?.verified ?? []).filter((d) => d.type !== 'webhook.ping').map((d) => `${d.type} ${d.id}`).sort();
      await waitFor('every expected delivery', async () => (roles.every((role) => received(role).length >= expected[role].length) ? true : undefined));
      // Anything delivered that should not be would arrive with the rest: give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Both directions: nothing the owner could not read, and everything they could.
      for (const role of roles) expect({ role, received: received(role) }).toEqual({ role, received: expected[role] });
      const pings = receivers.get('reader')?.verified.filter((d) => d.type === 'webhook.ping') ?? [];
      expect(pings).toHaveLength(1);
      expect(pings[0].data.object).toMatchObject({ type: 'webhook_endpoint', id: receivers.get('reader')?.endpointId });
      const appointment = walk.find((step) => step.entityType === 'appointment' && step.subjects === named)?.event;
      const appointmentDelivery = receivers.get('clinician')?.verified.find((d) => d.id === appointment?.eventId) as VerifiedDelivery;
      expect(appointmentDelivery.data.object.url).toBe(`http://127.0.0.1:3000/api/v1/appointments/${appointment?.entityIds[0]}`);
    } finally {
      for (const receiver of receivers.values()) await receiver.close();
    }
  });

  it('delivers an event of the older schema (no subjects) only to the roles that receive every event of its source', async () => {
    const roles = ['admin', 'bursar', 'student'] as const;
    const owners = Object.fromEntries(roles.map((role) => [role, api(role)])) as Record<(typeof roles)[number], ReturnType<typeof api>>;
    const receivers = new Map<string, Awaited<ReturnType<typeof verifyingReceiver>>>();
    try {
      for (const role of roles) {
        let secret = '';
        const receiver = await verifyingReceiver(() => [secret]);
        secret = (await owners[role].createEndpoint({ url: receiver.url, eventTypes: ['transaction.updated'] })).secret;
        receivers.set(role, receiver);
      }
      const older = eventOf({ action: 'transaction.updated', entityType: 'transaction' });
      await finance.publish(older);
      await waitFor('the older event at the admin and the bursar', async () =>
        ['admin', 'bursar'].every((role) => receivers.get(role)?.verified.some((d) => d.id === older.eventId)) ? true : undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receivers.get('student')?.verified).toEqual([]);
    } finally {
      for (const receiver of receivers.values()) await receiver.close();
    }
  });

  it('delivers a redelivered event (the same eventId published again) once', async () => {
    const admin = api('admin');
    let secret = '';
    const receiver = await verifyingReceiver(() => [secret]);
    try {
      secret = (await admin.createEndpoint({ url: receiver.url, eventTypes: ['category.created'] })).secret;
      const event = eventOf({ action: 'category.created', entityType: 'category' });
      await finance.publish(event);
      await waitFor('the first delivery', async () => (receiver.verified.length > 0 ? true : undefined));
      await finance.republish(event);
      const marker = eventOf({ action: 'category.created', entityType: 'category' });
      await finance.publish(marker);
      await waitFor('the event published after the repeat', async () => (receiver.verified.some((d) => d.id === marker.eventId) ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.verified.map((d) => d.id)).toEqual([event.eventId, marker.eventId]);
    } finally {
      await receiver.close();
    }
  });

  it('retries on the schedule, logs every attempt, gives up as failed, and a manual retry delivers', async () => {
    const admin = api('admin');
    let secret = '';
    let failing = true;
    const receiver = await verifyingReceiver(
      () => [secret],
      (_delivery, res) => void res.writeHead(failing ? 503 : 200).end(failing ? 'down for maintenance' : 'ok'),
    );
    try {
      const { endpoint, secret: given } = await admin.createEndpoint({ url: receiver.url, eventTypes: ['account.created'] });
      secret = given;
      const event = eventOf({ action: 'account.created', entityType: 'account' });
      await finance.publish(event);
      const [failed] = await waitFor('the delivery to fail', async () => {
        const { deliveries } = await admin.listDeliveries(endpoint?.id ?? '', 'failed');
        return deliveries.length > 0 ? deliveries : undefined;
      });
      expect(failed.attempts.map((attempt) => [attempt.status, attempt.responseExcerpt])).toEqual(Array(3).fill([503, 'down for maintenance']));
      const gaps = receiver.verified.slice(1).map((d, i) => d.receivedAt - receiver.verified[i].receivedAt);
      // Each wait is the schedule's, ±10% jitter.
      gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(SCHEDULE[i + 1] * 0.9 - 20));
      expect(receiver.verified.map((d) => d.id)).toEqual(Array(3).fill(event.eventId));

      failing = false;
      const { delivery } = await admin.retryDelivery(failed.id);
      expect(delivery).toMatchObject({ status: 'pending', attemptCount: 3 });
      await waitFor('the manual retry', async () => {
        const { deliveries } = await admin.listDeliveries(endpoint?.id ?? '', 'delivered');
        return deliveries.length > 0 ? true : undefined;
      });
      expect(receiver.verified).toHaveLength(4);
    } finally {
      await receiver.close();
    }
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const student = api('student');
    const receiver = await verifyingReceiver(() => [], (_delivery, res) => void res.writeHead(410).end());
    try {
      const { endpoint } = await student.createEndpoint({ url: receiver.url });
      await student.testEndpoint(endpoint?.id ?? '');
      const disabled = await waitFor('the endpoint to be disabled', async () => {
        const { endpoint: now } = await student.getEndpoint(endpoint?.id ?? '');
        return now?.enabled === false ? now : undefined;
      });
      expect(disabled).toMatchObject({ enabled: false, disabledReason: 'gone' });
      expect(await refusal(student.testEndpoint(endpoint?.id ?? ''))).toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION });
      const { endpoint: enabled } = await student.updateEndpoint({ id: endpoint?.id, enabled: true });
      expect(enabled).toMatchObject({ enabled: true, disabledReason: '' });
    } finally {
      await receiver.close();
    }
  });

  it('signs with the old and the new secret after a rotation, and keeps another owner out', async () => {
    const bursar = api('bursar');
    const stranger = api('bursar');
    const secrets: string[] = [];
    const receiver = await verifyingReceiver(() => secrets.slice(-1));
    const oldOnly = await verifyingReceiver(() => secrets.slice(0, 1));
    try {
      const { endpoint, secret } = await bursar.createEndpoint({ url: receiver.url });
      secrets.push(secret);
      const rotated = await bursar.rotateSecret(endpoint?.id ?? '');
      secrets.push(rotated.secret);
      expect(rotated.endpoint?.previousSecretExpiresAt).not.toBe('');
      await bursar.updateEndpoint({ id: endpoint?.id, url: oldOnly.url });
      await bursar.testEndpoint(endpoint?.id ?? '');
      await waitFor('the ping, verified with the old secret', async () => (oldOnly.verified.length > 0 ? true : undefined));
      const signatures = String(oldOnly.verified[0].headers['webhook-signature']).split(' ');
      expect(signatures).toHaveLength(2);
      // A receiver that knows only the new secret verifies it too.
      await bursar.updateEndpoint({ id: endpoint?.id, url: receiver.url });
      await bursar.testEndpoint(endpoint?.id ?? '');
      await waitFor('the ping, verified with the new secret', async () => (receiver.verified.length > 0 ? true : undefined));

      expect(await refusal(stranger.getEndpoint(endpoint?.id ?? ''))).toMatchObject({ code: GrpcStatus.NOT_FOUND });
      expect(await refusal(stranger.listDeliveries(endpoint?.id ?? ''))).toMatchObject({ code: GrpcStatus.NOT_FOUND });
    } finally {
      await receiver.close();
      await oldOnly.close();
    }
  });

  it('lets a hanging endpoint hold at most 4 deliveries, and never delays a healthy one', async () => {
    const admin = api('admin');
    let hangingSecret = '';
    let healthySecret = '';
    let open = 0;
    let mostOpen = 0;
    const hanging = await verifyingReceiver(
      () => [hangingSecret],
      () => {
        open += 1;
        mostOpen = Math.max(mostOpen, open);
      },
    );
    const healthy = await verifyingReceiver(() => [healthySecret]);
    try {
      hangingSecret = (await admin.createEndpoint({ url: hanging.url, eventTypes: ['student.created'] })).secret;
      healthySecret = (await admin.createEndpoint({ url: healthy.url, eventTypes: ['student.created'] })).secret;
      const events = Array.from({ length: 12 }, () => eventOf({ action: 'student.created', entityType: 'student' }));
      const published = Date.now();
      await finance.publish(...events);
      await waitFor('every delivery to the healthy endpoint', async () => (healthy.verified.length >= events.length ? true : undefined));
      // The hanging receiver holds its 4 for the 1.5 s timeout; the healthy one is served beside it.
      expect(Date.now() - published).toBeLessThan(1_500);
      expect(mostOpen).toBeLessThanOrEqual(4);
      expect(hanging.verified.length).toBeLessThanOrEqual(4);
    } finally {
      await hanging.close();
      await healthy.close();
    }
  });

  it('recovers: queues again every stored event since a time that the endpoint would have received, one in flight too', async () => {
    const bursar = api('bursar');
    let secret = '';
    // The first attempt is answered only after the recovery: its record must not undo the recovery.
    let held: ServerResponse | undefined;
    let answered = 0;
    const receiver = await verifyingReceiver(
      () => [secret],
      (_delivery, res) => {
        answered += 1;
        if (answered === 1) held = res;
        else res.writeHead(204).end();
      },
    );
    try {
      const { endpoint, secret: given } = await bursar.createEndpoint({ url: receiver.url, eventTypes: ['transaction.deleted'] });
      secret = given;
      const before = new Date().toISOString();
      const deleted = eventOf({ action: 'transaction.deleted', entityType: 'transaction' });
      const appointment = eventOf({ action: 'appointment.cancelled', entityType: 'appointment', subjects: [bursar.actor.userId] });
      await finance.publish(deleted);
      await scheduling.publish(appointment);
      await waitFor('the delivery', async () => (receiver.verified.length > 0 ? true : undefined));
      const { queued } = await bursar.recoverEvents(endpoint?.id ?? '', before);
      expect(queued).toBe(1);
      held?.writeHead(204).end();
      await waitFor('the recovered delivery', async () => (receiver.verified.length > 1 ? true : undefined));
      expect(receiver.verified.map((d) => d.id)).toEqual([deleted.eventId, deleted.eventId]);
      expect(await refusal(bursar.recoverEvents(endpoint?.id ?? '', '2020-01-01T00:00:00Z'))).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
    } finally {
      await receiver.close();
    }
  });

  it('lists the catalogue of event types', async () => {
    const { eventTypes } = await api('reader').listEventTypes();
    expect(eventTypes.map((type) => type.name)).toEqual(expect.arrayContaining(['transaction.created', 'appointment.rescheduled', 'appointment.cancelled', 'webhook.ping']));
    expect(eventTypes.find((type) => type.name === 'transaction.bulk_created')).toMatchObject({ entityType: 'transaction', bulk: true });
  });
});
