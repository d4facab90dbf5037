import { CursorCodec } from '@libs/cursor';
import { GrpcStatus, RpcError, type CallContext } from '@libs/grpc';
import type { auditV1 } from '@libs/contracts';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { appendEvent } from './audit-store';
import { entryHandlers } from './entry-handlers';
import { testCheckpointKeys, testEvent } from './test-events';

const request = (overrides: Partial<auditV1.ListEntriesRequest> = {}): auditV1.ListEntriesRequest => ({
  entityType: '',
  entityId: '',
  action: '',
  limit: 0,
  actorId: '',
  occurredFrom: '',
  occurredBefore: '',
  cursor: '',
  ...overrides,
});

const asAdmin: CallContext = { requestId: 'spec', actor: { userId: 'bob', role: 'admin' } };

describe('listing audit entries (PostgreSQL)', () => {
  let db: ScratchDatabase;
  let handlers: ReturnType<typeof entryHandlers>;
  const events = [
    testEvent({ occurredAt: '2026-01-01T00:00:00.000Z', action: 'transaction.created', actor: { userId: 'ann', role: 'bursar' } }),
    testEvent({ occurredAt: '2026-01-02T00:00:00.000Z', action: 'transaction.updated', actor: { userId: 'bob', role: 'admin' } }),
    testEvent({ occurredAt: '2026-01-03T00:00:00.000Z', action: 'payment.processed', entityType: 'payment', actor: { userId: 'ann', role: 'bursar' } }),
    testEvent({ occurredAt: '2026-01-04T00:00:00.000Z', action: 'transaction.deleted', actor: { userId: 'bob', role: 'admin' } }),
  ];

  beforeAll(async () => {
    db = await createScratchDatabase('audit', migrations);
    handlers = entryHandlers(db.sequelize, new CursorCodec('a-test-secret-of-some-length'), testCheckpointKeys());
    for (const e of events) await appendEvent(db.sequelize, e);
  });
  afterAll(() => db?.drop());

  const idsOf = (response: auditV1.ListEntriesResponse) => response.entries.map((e) => e.eventId);

  it('lists newest first and applies each filter', async () => {
    expect(idsOf(await handlers.listEntries(request(), asAdmin))).toEqual([...events].reverse().map((e) => e.eventId));
    expect(idsOf(await handlers.listEntries(request({ entityType: 'payment' }), asAdmin))).toEqual([events[2].eventId]);
    expect(idsOf(await handlers.listEntries(request({ entityId: events[1].entityIds[0] }), asAdmin))).toEqual([events[1].eventId]);
    expect(idsOf(await handlers.listEntries(request({ action: 'transaction.deleted' }), asAdmin))).toEqual([events[3].eventId]);
    expect(idsOf(await handlers.listEntries(request({ actorId: 'ann' }), asAdmin))).toEqual([events[2].eventId, events[0].eventId]);
    expect(
      idsOf(await handlers.listEntries(request({ occurredFrom: '2026-01-02T00:00:00Z', occurredBefore: '2026-01-04T00:00:00Z' }), asAdmin)),
    ).toEqual([events[2].eventId, events[1].eventId]);
  });

  it('walks every page once, with no nextCursor on the last page, even while entries are added', async () => {
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const page = await handlers.listEntries(request({ limit: 1, cursor, entityType: 'transaction' }), asAdmin);
      seen.push(...idsOf(page));
      if (pages === 0) await appendEvent(db.sequelize, testEvent()); // newer than the walk: not part of it
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual([events[3], events[1], events[0]].map((e) => e.eventId));
    expect(pages).toBe(3);
  });

  it.each([
    [{ limit: 501 }, 'limit'],
    [{ limit: -1 }, 'limit'],
    [{ occurredFrom: 'yesterday' }, 'from'],
    [{ occurredBefore: '2026-13-45T00:00:00Z' }, 'to'],
    [{ occurredFrom: '2026-01-02T00:00:00Z', occurredBefore: '2026-01-01T00:00:00Z' }, 'to'],
    [{ cursor: 'garbage' }, 'cursor'],
  ])('refuses %j naming %s', async (overrides, field) => {
    const attempt = handlers.listEntries(request(overrides), asAdmin);
    await expect(attempt).rejects.toBeInstanceOf(RpcError);
    await expect(attempt).rejects.toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT, fieldErrors: [{ field }] });
  });

  it('refuses a role without audit:read, and a call without an actor', async () => {
    const bursar: CallContext = { requestId: 'spec', actor: { userId: 'ann', role: 'bursar' } };
    await expect(handlers.listEntries(request(), bursar)).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
    await expect(handlers.verifyChain({}, bursar)).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
    await expect(handlers.listEntries(request(), { requestId: 'spec' })).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
  });

  it('refuses a cursor replayed with other filters', async () => {
    const first = await handlers.listEntries(request({ limit: 1, actorId: 'ann' }), asAdmin);
    expect(first.nextCursor).not.toBe('');
    await expect(handlers.listEntries(request({ limit: 1, actorId: 'bob', cursor: first.nextCursor }), asAdmin)).rejects.toMatchObject({
      fieldErrors: [{ field: 'cursor', message: expect.stringMatching(/different query/) }],
    });
  });
});
