import { webhookPayload, type ObjectReference } from './payload';

const occurredAt = new Date('2026-11-28T10:00:00.123Z');

describe('webhookPayload', () => {
  it('names the event and the object, with its version and where to fetch it', () => {
    const object = { type: 'transaction', id: 't1', version: 3, url: 'https://api.example.org/api/v1/transactions/t1' };
    expect(webhookPayload({ id: 'evt_1', type: 'transaction.updated', occurredAt, object })).toEqual({
      id: 'evt_1',
      type: 'transaction.updated',
      occurredAt: '2026-11-28T10:00:00.123Z',
      data: { object },
    });
  });

  it('leaves out an absent version rather than sending null', () => {
    const payload = webhookPayload({ id: 'e', type: 'account.deleted', occurredAt, object: { type: 'account', id: 'a', url: 'https://x/a' } });
    expect(JSON.stringify(payload.data)).toBe('{"object":{"type":"account","id":"a","url":"https://x/a"}}');
  });

  it('carries the ids of a bulk event, and no url', () => {
    const payload = webhookPayload({ id: 'e', type: 'transaction.bulk_deleted', occurredAt, object: { type: 'transaction', ids: ['t1', 't2'] } });
    expect(payload.data.object).toEqual({ type: 'transaction', ids: ['t1', 't2'] });
  });

  it('keeps a whole entity passed in by mistake down to its reference', () => {
    const entity = { type: 'transaction', id: 't1', version: 2, url: 'https://x/t1', payee: 'Registrar', amount: -125000 };
    expect(webhookPayload({ id: 'e', type: 'transaction.created', occurredAt, object: entity as ObjectReference }).data.object).toEqual({
      type: 'transaction',
      id: 't1',
      version: 2,
      url: 'https://x/t1',
    });
  });
});
