import { randomUUID } from 'node:crypto';
import { startSmtpReceiver, startSystem, waitFor, type RunningSystem, type SmtpReceiver } from '@libs/testing';
import { accountMailApi, counterValue, mailsTo } from './test-mail';

const MAILS = 5;
const OUTAGE_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every mail queued reached the receiver exactly once (by its Message-ID, which the row's id makes). */
async function expectEachOnce(receiver: SmtpReceiver, addresses: string[]) {
  for (const address of addresses) {
    const received = await mailsTo(receiver.mails, address);
    expect(received).toHaveLength(1);
  }
}

describe('mail through faults (real notifications process and a real SMTP server from npm)', () => {
  let system: RunningSystem;
  let receiver: SmtpReceiver | undefined;
  let port: number;

  beforeAll(async () => {
    // The receiver's port, taken and given back: the service is told of it before anything listens there.
    const probe = await startSmtpReceiver();
    port = probe.port;
    await probe.close();
    system = await startSystem({
      only: ['notifications'],
      env: {
        notifications: {
          SMTP_URL: `smtp://127.0.0.1:${port}`,
          MAIL_FROM: 'clinic@example.org',
          // Short, so the test retries every 2 s through the outage rather than on the production schedule.
          MAIL_RETRY_SCHEDULE: '0s,500ms,1s,2s',
          MAIL_POLL_MS: '100',
          MAIL_TIMEOUT_MS: '2000',
        },
      },
    });
  }, 90_000);

  afterAll(async () => {
    await system?.shutdown();
    await receiver?.close();
  });

  it('sends every mail once, after the mail server was down for 60 s', async () => {
    const gateway = accountMailApi(system);
    const addresses = Array.from({ length: MAILS }, (_, i) => `outage-${i}-${randomUUID().slice(0, 6)}@example.org`);
    const retriesBefore = await counterValue(system.metricsUrl('notifications'), 'notifications_mail_attempts_total', 'outcome="retry"');
    try {
      for (const email of addresses) expect(await gateway.queue({ template: 'verify_email', email, linkToken: 'tok' })).toEqual({ queued: true });
    } finally {
      gateway.close();
    }
    await sleep(OUTAGE_MS);
    // Tried through the outage, and counted as retries, never given up.
    expect(await counterValue(system.metricsUrl('notifications'), 'notifications_mail_attempts_total', 'outcome="retry"')).toBeGreaterThan(retriesBefore + MAILS);
    receiver = await startSmtpReceiver({ port });
    await waitFor('every mail after the outage', async () => (receiver && receiver.mails.length >= MAILS ? true : undefined), 20_000);
    await sleep(3_000);
    await expectEachOnce(receiver, addresses);
  }, 120_000);

  it('sends a mail once when the service is killed (SIGKILL) between storing it and sending it', async () => {
    await receiver?.close();
    receiver = undefined;
    const gateway = accountMailApi(system);
    const addresses = Array.from({ length: MAILS }, (_, i) => `killed-${i}-${randomUUID().slice(0, 6)}@example.org`);
    try {
      // Stored (the answer says so) while no mail server listens: nothing can have been sent.
      for (const email of addresses) expect(await gateway.queue({ template: 'password_reset', email, linkToken: 'tok' })).toEqual({ queued: true });
    } finally {
      gateway.close();
    }
    await system.stop('notifications', 'SIGKILL');
    receiver = await startSmtpReceiver({ port });
    await system.start('notifications');
    const started = receiver;
    await waitFor('every mail after the restart', async () => (started.mails.length >= MAILS ? true : undefined), 30_000);
    await sleep(3_000);
    await expectEachOnce(started, addresses);
  }, 90_000);
});
