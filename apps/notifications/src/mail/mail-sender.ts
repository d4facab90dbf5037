import { randomUUID } from 'node:crypto';
import { createTransport, type Transporter } from 'nodemailer';
import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import type { RetrySchedule } from '@libs/webhooks';
import { mailAttempts } from '../metrics';
import { ClaimLoop } from '../worker/claim-loop';
import { claimDueMail, recordMailAttempt, releaseMailLeases, type ClaimedMail } from './mail-store';
import { renderMail, UnrenderableMail, type RenderSettings } from './render-mail';

/** A lease outlasts an attempt (which MAIL_TIMEOUT_MS ends) by this much, for recording it. */
const LEASE_MARGIN_MS = 5_000;

export interface MailSenderOptions {
  sequelize: Sequelize;
  logger: Logger;
  smtpUrl: string;
  render: RenderSettings;
  schedule: RetrySchedule;
  timeoutMs: number;
  concurrency: number;
  pollMs: number;
}

/** The message, or an UnrenderableMail: what fails here fails the same way every time, so it is final. */
function rendered(claimed: ClaimedMail, settings: RenderSettings) {
  try {
    return renderMail(claimed, settings);
  } catch (error) {
    throw error instanceof UnrenderableMail ? error : new UnrenderableMail(`the mail cannot be made: ${(error as Error).message}`);
  }
}

/**
 * An SMTP answer of 5xx is final: the server will not take this mail, and asking again only repeats the refusal.
 * 4xx answers, connection failures and timeouts are passing: the mail is tried again later.
 */
function isFinal(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return error instanceof UnrenderableMail || (typeof code === 'number' && code >= 500);
}

/** The error as the row and the log keep it: the server's answer when there was one. */
const describe = (error: unknown) => {
  const { response, code, message } = error as { response?: string; code?: string; message?: string };
  return [code, response ?? message].filter(Boolean).join(': ');
};

/**
 * Sends the stored mail through SMTP (nodemailer), on any number of instances side by side: claims due rows under
 * a lease (SKIP LOCKED), sends each, and records the outcome before giving the lease back. Nothing is sent from
 * memory, so a killed instance's mail is sent by the next one to claim it once its lease runs out.
 */
export class MailSender {
  private readonly owner = randomUUID();
  private readonly loop: ClaimLoop<ClaimedMail>;
  private readonly transport: Transporter;

  constructor(private readonly options: MailSenderOptions) {
    const leaseMs = options.timeoutMs + LEASE_MARGIN_MS;
    // Pooled: connections are reused across mails, at most one per attempt in flight.
    this.transport = createTransport({
      url: options.smtpUrl,
      pool: true,
      maxConnections: options.concurrency,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
    this.loop = new ClaimLoop({
      logger: options.logger,
      what: 'mails',
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      claim: (room) => claimDueMail(options.sequelize, this.owner, room, leaseMs),
      attempt: (claimed) => this.attempt(claimed),
      logFields: (claimed) => ({ mailId: claimed.id }),
      release: async () => void (await releaseMailLeases(options.sequelize, this.owner)),
    });
  }

  start(): void {
    this.loop.start();
    this.options.logger.info({ leaseOwner: this.owner }, 'mail sender started');
  }

  /** Mail was stored: look now rather than after the poll. */
  nudge(): void {
    this.loop.nudge();
  }

  async stop(graceMs: number): Promise<void> {
    await this.loop.stop(graceMs);
    this.transport.close();
  }

  private async attempt(claimed: ClaimedMail): Promise<void> {
    const { logger, sequelize, schedule } = this.options;
    let outcome: Parameters<typeof recordMailAttempt>[3];
    try {
      const message = rendered(claimed, this.options.render);
      const info = (await this.transport.sendMail(message)) as { response?: string };
      outcome = { sent: true };
      logger.info({ mailId: claimed.id, template: claimed.template, response: info.response }, 'mail sent');
    } catch (error) {
      outcome = { sent: false, final: isFinal(error), error: describe(error) };
    }
    const verdict = await recordMailAttempt(sequelize, claimed, this.owner, outcome, schedule);
    mailAttempts.inc({ outcome: verdict });
    if (!outcome.sent) {
      const fields = { mailId: claimed.id, template: claimed.template, attempts: claimed.attempt_count + 1, error: outcome.error };
      if (verdict === 'retry') logger.warn(fields, 'mail not sent; it is tried again');
      else logger.error({ ...fields, verdict }, verdict === 'rejected' ? 'mail refused for good by the mail server; not tried again' : 'mail given up after 24 h of retries');
    }
  }
}
