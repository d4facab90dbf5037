import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { InvalidSecretError, newSecret, signatureHeaders, verifySignature } from './signature';

const body = '{"id":"evt_1","type":"transaction.created"}';
const now = new Date('2026-11-28T10:00:00Z');

describe('newSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes, new each time', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
  });
});

describe('signatureHeaders', () => {
  it('is accepted by the published Standard Webhooks verifier', () => {
    const secret = newSecret();
    const headers = signatureHeaders({ id: 'evt_1', timestamp: new Date(), body, secrets: [secret] });
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('signs with every secret during a rotation, so a receiver knowing either one verifies', () => {
    const [next, previous] = [newSecret(), newSecret()];
    const headers = { ...signatureHeaders({ id: 'evt_1', timestamp: new Date(), body, secrets: [next, previous] }) };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('writes the timestamp as Unix seconds', () => {
    expect(signatureHeaders({ id: 'e', timestamp: now, body, secrets: [newSecret()] })['webhook-timestamp']).toBe(
      String(now.getTime() / 1000),
    );
  });

  it('refuses a missing or malformed secret rather than signing with nothing', () => {
    for (const secrets of [[], [''], ['whsec_'], ['abc'], ['whsec_not base64!']]) {
      expect(() => signatureHeaders({ id: 'e', timestamp: now, body, secrets })).toThrow(InvalidSecretError);
    }
  });

  it('signs the bytes sent, whatever the text, and both verifiers agree', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.uuid(), (text, id) => {
        const secret = newSecret();
        const bytes = Buffer.from(text, 'utf8');
        const headers = { ...signatureHeaders({ id, timestamp: new Date(), body: text, secrets: [secret] }) };
        expect(verifySignature({ body: bytes, headers, secrets: [secret] })).toEqual({ ok: true });
        expect(() => new Webhook(secret).verify(bytes, headers, { jsonParse: false })).not.toThrow();
      }),
      { numRuns: 100 },
    );
  });
});

describe('verifySignature', () => {
  const secret = newSecret();
  const signed = { ...signatureHeaders({ id: 'evt_1', timestamp: now, body, secrets: [secret] }) };

  it('accepts a delivery within the tolerance, header names in any case', () => {
    expect(verifySignature({ body, headers: signed, secrets: [secret], now })).toEqual({ ok: true });
    const shouted = Object.fromEntries(Object.entries(signed).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifySignature({ body: Buffer.from(body), headers: shouted, secrets: [secret], now })).toEqual({ ok: true });
  });

  it('accepts what the published library signs', () => {
    const signature = new Webhook(secret).sign('msg_2', now, body);
    const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(now.getTime() / 1000), 'webhook-signature': signature };
    expect(verifySignature({ body, headers, secrets: [secret], now })).toEqual({ ok: true });
  });

  it('accepts any of the receiver’s own secrets, and any of the offered signatures', () => {
    const other = newSecret();
    const headers = { ...signed, 'webhook-signature': `v2,abc v1,AAAA ${signed['webhook-signature']}` };
    expect(verifySignature({ body, headers, secrets: [other, secret], now })).toEqual({ ok: true });
  });

  it.each([
    ['a changed body', { body: `${body} `, headers: signed }, 'no-match'],
    ['a parsed and re-serialised body', { body: JSON.stringify(JSON.parse(body), null, 1), headers: signed }, 'no-match'],
    ['another id', { body, headers: { ...signed, 'webhook-id': 'evt_2' } }, 'no-match'],
    ['a signature of another version', { body, headers: { ...signed, 'webhook-signature': signed['webhook-signature'].replace('v1,', 'v2,') } }, 'no-match'],
    ['no signature', { body, headers: { ...signed, 'webhook-signature': '' } }, 'missing-header'],
    ['no id', { body, headers: { 'webhook-timestamp': signed['webhook-timestamp'], 'webhook-signature': signed['webhook-signature'] } }, 'missing-header'],
    ['a timestamp that is not digits', { body, headers: { ...signed, 'webhook-timestamp': '1e9' } }, 'bad-timestamp'],
  ])('refuses %s', (_case, delivery, reason) => {
    expect(verifySignature({ ...delivery, secrets: [secret], now })).toEqual({ ok: false, reason });
  });

  it('refuses a delivery signed by another secret', () => {
    expect(verifySignature({ body, headers: signed, secrets: [newSecret()], now })).toEqual({ ok: false, reason: 'no-match' });
  });

  it('refuses a replay outside the tolerance window, either side', () => {
    const later = new Date(now.getTime() + 301_000);
    const earlier = new Date(now.getTime() - 301_000);
    expect(verifySignature({ body, headers: signed, secrets: [secret], now: later })).toEqual({ ok: false, reason: 'too-old' });
    expect(verifySignature({ body, headers: signed, secrets: [secret], now: earlier })).toEqual({ ok: false, reason: 'too-new' });
    expect(verifySignature({ body, headers: signed, secrets: [secret], now: later, toleranceSeconds: 600 })).toEqual({ ok: true });
  });
});
