import { randomUUID } from 'node:crypto';
import { signUp, startSystem, type RunningSystem } from '@libs/testing';
import { api } from '../http';
import { ENDPOINTS, problemType, webhookApi, type WebhookApi } from './webhook-helpers';

jest.setTimeout(60_000);

/** The webhook endpoints API through the gateway: what each answer shows and what is refused, and why. */
describe('webhook endpoints through the gateway (real processes)', () => {
  let system: RunningSystem;
  // Nothing listens here: these tests read answers, and no event is sent to it.
  const url = 'http://127.0.0.1:9/hooks';

  beforeAll(async () => {
    system = await startSystem();
  }, 90_000);
  afterAll(() => system?.shutdown());

  /** A user of their own (a reader, as sign-up makes), so counts and lists start empty. */
  const newUser = async (): Promise<WebhookApi> =>
    webhookApi(system, (await signUp(system.gatewayUrl, { email: `hooks-${randomUUID()}@example.org`, password: 'a fine password' })).key);

  it('creates an endpoint whose secret is shown once, then reads, lists, changes and deletes it', async () => {
    const owner = await newUser();
    const created = await owner.create({ url, eventTypes: ['webhook.ping'], description: 'first' });
    expect(created.status).toBe(201);
    const { secret, ...endpoint } = created.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({ url, description: 'first', eventTypes: ['webhook.ping'], enabled: true, disabledReason: null, version: 1 });
    expect(created.headers.get('location')).toBe(`${ENDPOINTS}/${endpoint.id}`);
    expect(created.headers.get('etag')).toBe('"1"');

    const read = await owner.get(endpoint.id);
    expect(read.body).toEqual(endpoint);
    expect(read.headers.get('etag')).toBe('"1"');
    expect((await owner.list()).body).toEqual({ endpoints: [endpoint] });
    expect(JSON.stringify([read.body, (await owner.list()).body])).not.toContain(secret);

    const changed = await owner.update(endpoint.id, { description: null, eventTypes: ['*'], enabled: false }, { 'If-Match': '"1"' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ description: null, eventTypes: ['*'], enabled: false, version: 2 });
    const stale = await owner.update(endpoint.id, { enabled: true }, { 'If-Match': '"1"' });
    expect(stale.status).toBe(412);
    // A disabled endpoint takes no ping.
    const ping = await owner.test(endpoint.id);
    expect(ping.status).toBe(409);
    expect(ping.body.type).toBe(problemType('endpoint_disabled'));

    expect((await owner.remove(endpoint.id)).status).toBe(204);
    expect((await owner.get(endpoint.id)).status).toBe(404);
    expect((await owner.list()).body).toEqual({ endpoints: [] });
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://10.0.0.1/hooks', 'private'],
    ['http://100.64.0.1/hooks', 'cgnat'],
    ['http://[fd00::1]/hooks', 'unique-local'],
    ['http://0.0.0.0:8080/hooks', 'unspecified'],
    ['ftp://example.org/hooks', 'scheme'],
    ['http://user:pass@127.0.0.1:9/hooks', 'credentials'],
  ])('refuses %s with a 422 naming the rule %s, on create and on change', async (refused, rule) => {
    const owner = webhookApi(system, system.keys.clinician);
    const created = await owner.create({ url: refused, eventTypes: ['*'] });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ type: problemType('webhook_url_refused'), rule });
    expect(created.body.detail).toMatch(/^the URL /);
    expect(created.body.detail).not.toContain(refused);

    const kept = await owner.create({ url, eventTypes: ['*'] });
    const changed = await owner.update(kept.body.id, { url: refused });
    expect(changed.status).toBe(422);
    expect(changed.body.rule).toBe(rule);
    expect((await owner.get(kept.body.id)).body.url).toBe(url);
    await owner.remove(kept.body.id);
  });

  it('refuses event types outside the catalogue, naming the field', async () => {
    const owner = webhookApi(system, system.keys.student);
    for (const eventTypes of [['transaction.made'], [], ['*', 'transaction.created'], ['payment.processed', 'payment.processed']]) {
      const refused = await owner.create({ url, eventTypes });
      expect({ eventTypes, status: refused.status, fields: refused.body.errors?.map((e: { field: string }) => e.field) }).toEqual({
        eventTypes,
        status: 400,
        fields: ['eventTypes'],
      });
    }
  });

  it("answers 404 for another user's endpoint and delivery, as for a missing one; an admin may manage anyone's", async () => {
    const bursar = webhookApi(system, system.keys.bursar);
    const created = await bursar.create({ url, eventTypes: ['webhook.ping'] });
    const ping = await bursar.test(created.body.id);
    const id = created.body.id as string;

    const other = webhookApi(system, system.keys.student);
    const answers = await Promise.all([
      other.get(id),
      other.update(id, { enabled: false }),
      other.rotate(id),
      other.test(id),
      other.deliveries(id),
      other.recover(id, new Date().toISOString()),
      other.retry(ping.body.id),
      other.remove(id),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(answers.length).fill(404));
    const missing = await other.get(randomUUID());
    expect(missing.body.detail).toBe(answers[0].body.detail);
    expect((await bursar.get(id)).body.enabled).toBe(true);

    const admin = webhookApi(system, system.keys.admin);
    expect((await admin.get(id)).body).toMatchObject({ id, ownerId: created.body.ownerId });
    expect((await admin.remove(id)).status).toBe(204);
  });

  it('refuses the eleventh endpoint of a user with a 409', async () => {
    const owner = await newUser();
    for (let n = 1; n <= 10; n += 1) expect((await owner.create({ url, eventTypes: ['webhook.ping'] })).status).toBe(201);
    const eleventh = await owner.create({ url, eventTypes: ['webhook.ping'] });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body).toMatchObject({ type: problemType('endpoint_limit'), limit: 10 });

    // Their list, a page at a time: oldest first, every one once.
    const all = (await owner.list()).body.endpoints.map((endpoint: { id: string }) => endpoint.id);
    expect(all).toHaveLength(10);
    const paged: string[] = [];
    let query = '?limit=4';
    for (;;) {
      const { body } = await owner.list(query);
      paged.push(...body.endpoints.map((endpoint: { id: string }) => endpoint.id));
      if (!body.nextCursor) break;
      query = `?limit=4&cursor=${encodeURIComponent(body.nextCursor)}`;
    }
    expect(paged).toEqual(all);
  });

  it('answers a create repeated with its Idempotency-Key with the first answer, and refuses the key with another body', async () => {
    const owner = await newUser();
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await owner.create({ url, eventTypes: ['webhook.ping'] }, key);
    const again = await owner.create({ url, eventTypes: ['webhook.ping'] }, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await owner.list()).body.endpoints).toHaveLength(1);
    expect((await owner.create({ url, eventTypes: ['*'] }, key)).status).toBe(409);

    const pingKey = { 'Idempotency-Key': randomUUID() };
    const ping = await owner.test(first.body.id, pingKey);
    const pingAgain = await owner.test(first.body.id, pingKey);
    expect(pingAgain.body.id).toBe(ping.body.id);
    expect(pingAgain.headers.get('idempotent-replayed')).toBe('true');
  });

  it('lists the event types, the catalogue the document describes under webhooks', async () => {
    const { body } = await webhookApi(system, system.keys.reader).eventTypes();
    const byName = new Map(body.eventTypes.map((type: { name: string }) => [type.name, type]));
    expect(byName.get('transaction.created')).toEqual({ name: 'transaction.created', description: expect.any(String), entityType: 'transaction', bulk: false });
    expect(byName.get('transaction.bulk_created')).toMatchObject({ entityType: 'transaction', bulk: true });
    expect(byName.get('webhook.ping')).toMatchObject({ entityType: null, bulk: false });
    expect(byName.has('appointment.rescheduled') && byName.has('appointment.cancelled')).toBe(true);

    const document = (await api(system.gatewayUrl, '/openapi.json')).body;
    expect(Object.keys(document.webhooks).sort()).toEqual([...byName.keys()].sort());
    const created = document.webhooks['transaction.created'].post;
    expect(created.parameters.map((p: { name: string }) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'User-Agent']);
    expect(created.requestBody.content['application/json'].schema.properties.type).toEqual({ type: 'string', const: 'transaction.created' });
  });
});
