import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { notificationsV1 } from '@libs/contracts';
import type { Logger } from '@libs/logging';
import { resolveResetRequests } from './password-reset-requests';

/**
 * Account mails (verification, password reset, "someone tried to register"). They carry a one-time token, so they
 * are not events: the gateway stores each in its own database, in the transaction of the change that asks for it,
 * and hands it to the notifications service (QueueAccountMail) after the commit, again and again until notifications
 * has stored it. An acknowledged registration therefore never loses its mail, whatever is down when it happens
 * (docs/decisions/0015). The raw token waits in `account_mails.link_token` only until then. A password reset is
 * stored as a request first and becomes a mail here (password-reset-requests.ts).
 */
export type AccountTemplate = 'verify_email' | 'password_reset' | 'registration_attempt';

export interface AccountMail {
  /** The mail's id, the idempotency key of QueueAccountMail: the token's row id, or a fresh id when there is no token. */
  id?: string;
  template: AccountTemplate;
  email: string;
  userId: string;
  linkToken?: string;
}

/** Stores an account mail for the relay, in the transaction of the change it belongs to. */
export async function storeAccountMail(sequelize: Sequelize, transaction: Transaction, mail: AccountMail): Promise<void> {
  await sequelize.query('INSERT INTO account_mails (id, template, email, user_id, link_token) VALUES ($1, $2, $3, $4, $5)', {
    bind: [mail.id ?? randomUUID(), mail.template, mail.email, mail.userId, mail.linkToken ?? null],
    transaction,
  });
}

/** How one stored mail reaches notifications: QueueAccountMail through the gateway's upstream. */
export type HandOver = (request: notificationsV1.QueueAccountMailRequest) => Promise<notificationsV1.QueueAccountMailResponse>;

interface PendingMail {
  id: string;
  template: AccountTemplate;
  email: string;
  user_id: string | null;
  link_token: string | null;
  attempts: number;
}

/** Waits after a failed hand-over: doubling from 1 s, at most a minute, so a returning service gets the backlog soon. */
const backoffSeconds = (attempts: number): number => Math.min(60, 2 ** Math.min(attempts, 6));

export interface AccountMailRelayOptions {
  pollMs: number;
  batchSize: number;
}

/**
 * Hands stored account mails to notifications. Every instance may run one: a batch is claimed with FOR UPDATE SKIP
 * LOCKED in a transaction that lasts the calls, so no two instances hand one mail over at once, and a crash
 * releases the claim. A refusal by the per-address limit (`queued: false`) is final: the mail was seen and not
 * wanted, and is recorded as such; a failed call is tried again later.
 */
export class AccountMailRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private again = false;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly handOver: HandOver,
    private readonly logger: Logger,
    private readonly options: AccountMailRelayOptions,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Called after a commit that stored a mail, so that it goes at once rather than at the next poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'account mail relay pass failed; trying again'))
        .finally(() => {
          this.running = undefined;
          const more = this.again;
          this.again = false;
          this.schedule(more ? 0 : this.options.pollMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  /**
   * Resolves stored reset requests into mails (or into nothing), then hands over one batch of due mails, each marked
   * in the claiming transaction. A reset request not yet resolved is never handed over: it has no user and no token.
   */
  private async pass(): Promise<void> {
    const resolved = await resolveResetRequests(this.sequelize, this.options.batchSize);
    const handed = await this.sequelize.transaction(async (transaction) => {
      const due = await this.sequelize.query<PendingMail>(
        `SELECT id, template, email, user_id, link_token, attempts FROM account_mails
          WHERE handed_at IS NULL AND next_attempt <= now() AND NOT (template = 'password_reset' AND user_id IS NULL)
          ORDER BY next_attempt LIMIT $1 FOR UPDATE SKIP LOCKED`,
        { bind: [this.options.batchSize], type: QueryTypes.SELECT, transaction },
      );
      for (const mail of due) await this.handOne(mail, transaction);
      return due.length;
    });
    if (handed === this.options.batchSize || resolved === this.options.batchSize) this.again = true;
  }

  private async handOne(mail: PendingMail, transaction: Transaction): Promise<void> {
    try {
      const { queued } = await this.handOver({
        mailId: mail.id,
        template: mail.template,
        email: mail.email,
        userId: mail.user_id ?? '',
        linkToken: mail.link_token ?? '',
      });
      // The token is notifications' to keep now: this copy goes.
      await this.sequelize.query('UPDATE account_mails SET handed_at = now(), queued = $2, link_token = NULL, last_error = NULL WHERE id = $1', {
        bind: [mail.id, queued],
        transaction,
      });
      if (!queued) this.logger.info({ mailId: mail.id, template: mail.template }, 'account mail refused by the per-address limit');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.sequelize.query(
        `UPDATE account_mails SET attempts = attempts + 1, last_error = $2, next_attempt = now() + make_interval(secs => $3) WHERE id = $1`,
        { bind: [mail.id, message.slice(0, 500), backoffSeconds(mail.attempts)], transaction },
      );
      this.logger.warn({ mailId: mail.id, attempts: mail.attempts + 1, err: message }, 'account mail not handed to notifications; will retry');
    }
  }
}
