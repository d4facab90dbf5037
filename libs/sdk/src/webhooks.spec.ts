import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WEBHOOK_EVENT_TYPES, WebhookVerificationError, type WebhookEvent } from './index';

/** Deliveries signed by the published Standard Webhooks package, as a receiver gets them. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const event: WebhookEvent<'transaction.created'> = {
  id: '3f1c1f0e-7c2a-4c55-9a51-2b7a0c1e0d11',
  type: 'transaction.created',
  occurredAt: '2026-11-28T10:00:00.000Z',
  data: { object: { type: 'transaction', id: 't1', version: 1, url: 'https://api.example.org/api/v1/transactions/t1' } },
};
const body = JSON.stringify(event);

function signed(secrets: string[], at = new Date(), payload = body) {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(event.id, at, payload));
  return {
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}

const refusalOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof WebhookVerificationError ? error.reason : error;
  }
  return 'verified';
};

describe('verifyWebhook', () => {
  it('returns the typed event of a delivery the published signer signed, from bytes or text', () => {
    const secret = newSecret();
    const headers = signed([secret]);
    const verified = verifyWebhook(secret, headers, Buffer.from(body));
    expect(verified).toEqual(event);
    if (verified.type === 'transaction.created') expect(verified.data.object.url).toBe(event.data.object.url);
    expect(verifyWebhook(secret, headers, body)).toEqual(event);
  });

  it('takes Fetch Headers, and header names in any case', () => {
    const secret = newSecret();
    const headers = signed([secret]);
    expect(verifyWebhook(secret, new Headers(headers), body)).toEqual(event);
    const shouted = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(secret, shouted, body)).toEqual(event);
  });

  it('verifies during a rotation with either secret, or with both', () => {
    const [next, previous] = [newSecret(), newSecret()];
    const headers = signed([next, previous]);
    expect(verifyWebhook(next, headers, body)).toEqual(event);
    expect(verifyWebhook(previous, headers, body)).toEqual(event);
    expect(verifyWebhook([newSecret(), previous], headers, body)).toEqual(event);
  });

  it('refuses another secret, an altered body, a late replay and a missing header, saying which', () => {
    const secret = newSecret();
    const headers = signed([secret]);
    expect(refusalOf(() => verifyWebhook(newSecret(), headers, body))).toBe('no-match');
    expect(refusalOf(() => verifyWebhook(secret, headers, body.replace('t1', 't2')))).toBe('no-match');
    // A parsed and re-serialised body is not the one signed.
    expect(refusalOf(() => verifyWebhook(secret, headers, JSON.stringify(JSON.parse(body), null, 1)))).toBe('no-match');
    const late = new Date(Date.now() - 6 * 60_000);
    expect(refusalOf(() => verifyWebhook(secret, signed([secret], late), body))).toBe('too-old');
    expect(refusalOf(() => verifyWebhook(secret, { ...headers, 'webhook-signature': undefined }, body))).toBe('missing-header');
  });
});

describe('WEBHOOK_EVENT_TYPES', () => {
  it('lists every event type once, the ping and a reschedule apart from a cancellation included', () => {
    expect(new Set(WEBHOOK_EVENT_TYPES).size).toBe(WEBHOOK_EVENT_TYPES.length);
    expect(WEBHOOK_EVENT_TYPES).toEqual(
      expect.arrayContaining(['transaction.created', 'webhook.ping', 'appointment.rescheduled', 'appointment.cancelled']),
    );
  });
});
