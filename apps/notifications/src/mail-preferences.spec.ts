import { randomUUID } from 'node:crypto';
import { DEMO_USER_IDS } from '@libs/contracts';
import { startSmtpReceiver, startSystem, waitFor, type RunningSystem, type SmtpReceiver } from '@libs/testing';
import { mailsTo, paymentEvent, rawHeader, userEvent } from './test-mail';
import { startPublisher } from './test-webhooks';

/**
 * Mail preferences through the gateway, as a user reaches them: the demo student's key reads and changes them, and
 * the one-click link of a real mail (received by a real SMTP server, parsed with mailparser) turns finance mail
 * off with a POST and no key. The identity events are test fixtures standing in for the gateway's identity area.
 */
describe('mail preferences and one-click unsubscribe through the gateway (real processes, smtp-server)', () => {
  let system: RunningSystem;
  let receiver: SmtpReceiver;
  const email = `student-${randomUUID().slice(0, 8)}@example.org`;
  const studentId = DEMO_USER_IDS.student;

  beforeAll(async () => {
    receiver = await startSmtpReceiver();
    system = await startSystem({
      env: { notifications: { SMTP_URL: receiver.url, MAIL_FROM: 'clinic@example.org', MAIL_POLL_MS: '100' } },
    });
  }, 120_000);

  afterAll(async () => {
    await system?.shutdown();
    await receiver?.close();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${system.gatewayUrl}${path}`, { ...init, headers: { authorization: `Bearer ${system.keys.student}`, 'content-type': 'application/json', ...init.headers } });

  it('reads and changes the preferences of the caller, refusing fields it does not know', async () => {
    expect(await (await api('/api/v1/auth/me/notifications')).json()).toEqual({ finance: true, appointments: true, reminders: true });
    const changed = await api('/api/v1/auth/me/notifications', { method: 'PATCH', body: JSON.stringify({ reminders: false }) });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ finance: true, appointments: true, reminders: false });
    const unknown = await api('/api/v1/auth/me/notifications', { method: 'PATCH', body: JSON.stringify({ account: false }) });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((await fetch(`${system.gatewayUrl}/api/v1/auth/me/notifications`)).status).toBe(401);
  });

  it("turns finance mail off from the mail's List-Unsubscribe link with a POST and no key; a forged link is a 404", async () => {
    const identity = await startPublisher(system, 'identity');
    const finance = await startPublisher(system, 'finance');
    try {
      await identity.publish(userEvent('user.registered', { id: studentId, email, role: 'student', emailVerified: true }));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await finance.publish(paymentEvent('payment.processed', studentId, { outcome: 'accepted', note: null }));
      const [mail] = await waitFor('the payment mail', async () => ((await mailsTo(receiver.mails, email)).length > 0 ? mailsTo(receiver.mails, email) : undefined));
      expect(rawHeader(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      const link = new URL(/^<(.*)>$/.exec(rawHeader(mail, 'list-unsubscribe') ?? '')?.[1] ?? '');
      // The link's path on this run's gateway (the service's PUBLIC_API_URL is the default one).
      const here = `${system.gatewayUrl}${link.pathname}`;
      const forged = await fetch(here.replace(/.{4}$/, 'AAAA'), { method: 'POST', body: 'List-Unsubscribe=One-Click' });
      expect(forged.status).toBe(404);
      const clicked = await fetch(here, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(clicked.status).toBe(204);
      expect((await fetch(here, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status).toBe(204);
      expect(await (await api('/api/v1/auth/me/notifications')).json()).toMatchObject({ finance: false });
      await finance.publish(paymentEvent('payment.resolved', studentId, { outcome: 'accepted', note: null }));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await mailsTo(receiver.mails, email)).toHaveLength(1);
    } finally {
      await identity.close();
      await finance.close();
    }
  });
});
