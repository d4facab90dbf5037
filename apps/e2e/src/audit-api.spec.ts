import { createHash, randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { busTopology } from '@libs/bus';
import { AUDIT_SCHEMA_VERSION, canonicalJson, DEMO_USER_IDS } from '@libs/contracts';
import { AMQP_URL, signedHeaders, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { allAuditEntries, createTransactions, waitForAuditTotal } from './audit-helpers';
import { api } from './http';

describe('GET /api/v1/audit, /verify and /dead-letters', () => {
  let system: RunningSystem;
  let ids: string[];
  const get = (path: string, key = system.keys.admin) => api(system.gatewayUrl, path, { key });

  beforeAll(async () => {
    system = await startSystem();
    ids = await createTransactions(system, 7, { concurrency: 1 });
    await waitForAuditTotal(system, 7);
  }, 90_000);
  afterAll(() => system?.shutdown());

  it('is for admins only', async () => {
    expect((await api(system.gatewayUrl, '/api/v1/audit')).status).toBe(401);
    for (const role of ['reader', 'student', 'bursar'] as const) {
      for (const path of ['/api/v1/audit', '/api/v1/audit/verify', '/api/v1/audit/dead-letters']) {
        expect({ role, path, status: (await get(path, system.keys[role])).status }).toEqual({ role, path, status: 403 });
      }
    }
  });

  it('filters by entity, action, actor and time', async () => {
    const byEntity = await get(`/api/v1/audit?entityType=transaction&entityId=${ids[3]}`);
    expect(byEntity.body.entries.map((e: { entityIds: string[] }) => e.entityIds)).toEqual([[ids[3]]]);
    expect(byEntity.body).not.toHaveProperty('nextCursor');

    const byActor = await get(`/api/v1/audit?actorId=${DEMO_USER_IDS.bursar}&action=transaction.created`);
    expect(byActor.body.entries).toHaveLength(7);
    // The admin changed no transaction (the run's start had them set the demo keys' limits: identity entries).
    expect((await get(`/api/v1/audit?actorId=${DEMO_USER_IDS.admin}&entityType=transaction`)).body.entries).toEqual([]);
    expect((await get('/api/v1/audit?action=transaction.deleted')).body.entries).toEqual([]);

    const newest = byActor.body.entries[0];
    const exactly = await get(`/api/v1/audit?from=${encodeURIComponent(newest.occurredAt)}&to=${encodeURIComponent(newest.occurredAt)}`);
    expect(exactly.body.entries.map((e: { eventId: string }) => e.eventId)).toContain(newest.eventId);
    const today = newest.occurredAt.slice(0, 10);
    expect((await get(`/api/v1/audit?from=${today}&to=${today}&entityType=transaction`)).body.entries).toHaveLength(7);
    expect((await get('/api/v1/audit?to=2000-01-01')).body.entries).toEqual([]);
  });

  it('pages with a cursor: every entry once, newest first, no nextCursor on the last page', async () => {
    const seen: number[] = [];
    let path = '/api/v1/audit?entityType=transaction&limit=3';
    for (;;) {
      const page = await get(path);
      expect(page.status).toBe(200);
      seen.push(...page.body.entries.map((e: { sequence: number }) => e.sequence));
      if (!('nextCursor' in page.body)) break;
      expect(page.body.nextCursor).toEqual(expect.any(String));
      path = `/api/v1/audit?entityType=transaction&limit=3&cursor=${page.body.nextCursor}`;
    }
    // The transactions' 7 entries, each once, newest first (the identity area's entries sit between them in the chain).
    const all = (await allAuditEntries(system, 'entityType=transaction')).map((entry) => entry.sequence as number);
    expect(all).toHaveLength(7);
    expect(seen).toEqual(all);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['from=yesterday', 'from'],
    ['from=2026-02-30', 'from'],
    ['to=2026-02-30T09:00:00Z', 'to'],
    ['to=2026-03-08T24:00:00Z', 'to'],
    ['to=-2026-01-01', 'to'],
    ['to=99999-01-01', 'to'],
    ['from=2026-01-02&to=2026-01-01', 'to'],
    ['entityId=a&entityId=b', 'entityId'],
    [`actorId=${'x'.repeat(65)}`, 'actorId'],
    ['cursor=garbage', 'cursor'],
  ])('answers ?%s with 400 naming %s', async (query, field) => {
    const response = await get(`/api/v1/audit?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  it('refuses a cursor replayed with other filters', async () => {
    const first = await get('/api/v1/audit?limit=2&entityType=transaction');
    const replayed = await get(`/api/v1/audit?limit=2&entityType=payment&cursor=${first.body.nextCursor}`);
    expect(replayed.status).toBe(400);
    expect(replayed.body.errors).toEqual([{ field: 'cursor', message: expect.stringMatching(/different query/) }]);
  });

  it('serves each entry so that a client can recompute its hash from what it is served', async () => {
    const entries = await allAuditEntries(system);
    for (const entry of entries) {
      expect(entry.schemaVersion).toBe(AUDIT_SCHEMA_VERSION);
      const { eventId, occurredAt, action, entityType, entityIds, actor, requestId, schemaVersion, subjects, before, after } = entry;
      const event = { eventId, occurredAt, action, entityType, entityIds, actor, requestId, schemaVersion, subjects, before, after };
      const hash = createHash('sha256').update(entry.prevHash).update(canonicalJson(event)).digest('hex');
      expect(hash).toBe(entry.hash);
    }
  });

  it('reports an intact chain', async () => {
    const entries = await allAuditEntries(system);
    // Every entry: the 7 transactions' and the identity area's (the run's demo users and keys).
    expect((await get('/api/v1/audit/verify')).body).toEqual({ intact: true, checked: entries.length, lastHash: entries[0].hash, checkpointsChecked: 0 });
  });

  it('signs the head on demand, and the checkpoint verifies with the published JWK in WebCrypto', async () => {
    const signed = await api(system.gatewayUrl, '/api/v1/audit/checkpoints', { method: 'POST', key: system.keys.admin });
    expect(signed.status).toBe(200);
    // The head is the entry stored last (the highest sequence); the list is ordered by when changes happened.
    const head = (await allAuditEntries(system)).reduce((a, b) => (a.sequence > b.sequence ? a : b));
    expect(signed.body).toMatchObject({ sequence: head.sequence, hash: head.hash });
    // Asked again with no new entry: the same checkpoint, nothing new signed.
    expect((await api(system.gatewayUrl, '/api/v1/audit/checkpoints', { method: 'POST', key: system.keys.admin })).body).toEqual(signed.body);

    const listed = (await get('/api/v1/audit/checkpoints')).body;
    expect(listed.checkpoints[0]).toEqual(signed.body);
    const jwk = listed.keys.find((key: { keyId: string }) => key.keyId === signed.body.keyId);
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', current: true });
    const key = await crypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
    const { sequence, hash, signedAt, signature } = signed.body;
    const message = (h: string) => new TextEncoder().encode(`audit-checkpoint:v1:${sequence}:${h}:${signedAt}`);
    const bytes = Buffer.from(signature, 'base64url');
    expect(await crypto.subtle.verify({ name: 'Ed25519' }, key, bytes, message(hash))).toBe(true);
    expect(await crypto.subtle.verify({ name: 'Ed25519' }, key, bytes, message('0'.repeat(64)))).toBe(false);

    expect((await get('/api/v1/audit/verify')).body).toMatchObject({ intact: true, checkpointsChecked: 1 });
    for (const role of ['reader', 'student', 'bursar'] as const) {
      expect((await get('/api/v1/audit/checkpoints', system.keys[role])).status).toBe(403);
      expect((await api(system.gatewayUrl, '/api/v1/audit/checkpoints', { method: 'POST', key: system.keys[role] })).status).toBe(403);
    }
  });

  it('dead-letters a malformed message at once, shows the depth, and replays dead letters', async () => {
    const topology = busTopology(`${system.namespace}.`);
    const connection = await connect(AMQP_URL);
    try {
      const channel = await connection.createConfirmChannel();
      // Signed by finance: malformed, not forged (signed-events.spec.ts has the forgeries).
      const poison = { routingKey: 'transaction.created', messageId: 'poison', body: Buffer.from('{"not": "an event"') };
      channel.publish(topology.exchange, poison.routingKey, poison.body, { messageId: poison.messageId, headers: signedHeaders(system, 'finance', poison) });
      const depth = async (expected: number) =>
        waitFor(`dead-letter depth ${expected}`, async () => {
          const response = await get('/api/v1/audit/dead-letters');
          return response.body.depth === expected ? response.body : undefined;
        });
      expect(await depth(1)).toEqual({ queue: topology.deadLetterQueue, depth: 1 });

      // A valid event that was dead-lettered earlier (say, during a bug) is stored once replayed.
      const event = {
        eventId: randomUUID(),
        occurredAt: new Date().toISOString(),
        action: 'transaction.updated',
        entityType: 'transaction',
        entityIds: [ids[0]],
        actor: { userId: DEMO_USER_IDS.admin, role: 'admin' },
        requestId: 'replayed-1',
        before: null,
        after: null,
      };
      // A replay publishes it again under the routing key it was dead-lettered with: here the queue's name.
      const replayed = { routingKey: topology.deadLetterQueue, messageId: event.eventId, body: Buffer.from(JSON.stringify(event)) };
      channel.sendToQueue(topology.deadLetterQueue, replayed.body, { messageId: replayed.messageId, headers: signedHeaders(system, 'finance', replayed) });
      await channel.waitForConfirms();
      await depth(2);

      const replay = await api(system.gatewayUrl, '/api/v1/audit/dead-letters/replay', { method: 'POST', key: system.keys.admin });
      expect(replay.status).toBe(200);
      expect(replay.body).toMatchObject({ replayed: 2, stoppedAtDeadline: false });
      expect(await waitForAuditTotal(system, 8)).toBe(8);
      expect((await get('/api/v1/audit?action=transaction.updated')).body.entries).toEqual([
        expect.objectContaining({ eventId: event.eventId, requestId: 'replayed-1' }),
      ]);
      await depth(1); // the malformed message is dead-lettered again
      const bursar = await api(system.gatewayUrl, '/api/v1/audit/dead-letters/replay', { method: 'POST', key: system.keys.bursar });
      expect(bursar.status).toBe(403);
    } finally {
      await connection.close();
    }
  });
});
