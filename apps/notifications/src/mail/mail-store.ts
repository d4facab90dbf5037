import { QueryTypes, type Sequelize } from 'sequelize';
import { nextAttemptAt, type RetrySchedule } from '@libs/webhooks';
import type { MailRow } from './render-mail';

/** How long a mail is retried (4xx answers, connection failures) before it is given up as `failed`. */
export const MAIL_GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

export interface ClaimedMail extends MailRow {
  attempt_count: number;
  created_at: Date;
}

/**
 * Leases up to `capacity` due mails to `owner` for `leaseMs`. Rows another instance is claiming or finishing are
 * skipped (SKIP LOCKED); a lease that ran out (its instance was killed) makes the mail claimable again.
 */
export function claimDueMail(sequelize: Sequelize, owner: string, capacity: number, leaseMs: number): Promise<ClaimedMail[]> {
  return sequelize.query<ClaimedMail>(
    `UPDATE mails m SET lease_owner = $owner::uuid, lease_until = now() + $leaseMs::int * interval '1 millisecond'
       FROM (SELECT id FROM mails
              WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until <= now())
              ORDER BY next_attempt_at LIMIT $capacity::int FOR UPDATE SKIP LOCKED) due
      WHERE m.id = due.id
     RETURNING m.id, m.template, m.category, m.recipient, m.to_address, m.params, m.attempt_count, m.created_at`,
    { bind: { owner, leaseMs, capacity }, type: QueryTypes.SELECT },
  );
}

export function releaseMailLeases(sequelize: Sequelize, owner: string): Promise<unknown> {
  return sequelize.query("UPDATE mails SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1 AND status = 'pending'", { bind: [owner] });
}

/** What became of one attempt: sent; retried later; failed for good (a 5xx, or a mail that cannot be made); expired (24 h of retries). */
export type MailVerdict = 'sent' | 'retry' | 'rejected' | 'expired';

/**
 * Records an attempt under this instance's lease (if the lease ran out and another instance took the mail, that one
 * decides). A sent mail loses its one-time token: it is needed no more, and the table then holds none that works.
 * A retry waits the schedule's next step (its last step repeating) unless that passes the 24 h, which expires it.
 */
export async function recordMailAttempt(
  sequelize: Sequelize,
  claimed: ClaimedMail,
  owner: string,
  outcome: { sent: true } | { sent: false; final: boolean; error: string },
  schedule: RetrySchedule,
): Promise<MailVerdict> {
  const attempts = claimed.attempt_count + 1;
  const update = (set: string, bind: unknown[]) =>
    sequelize.query(`UPDATE mails SET ${set}, attempt_count = $3, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2`, {
      bind: [claimed.id, owner, attempts, ...bind],
    });
  if (outcome.sent) {
    await update("status = 'sent', finished_at = now(), last_error = NULL, params = params - 'linkToken'", []);
    return 'sent';
  }
  const error = outcome.error.slice(0, 1000);
  const next = outcome.final ? undefined : nextAttemptAt(schedule, Math.min(attempts, schedule.length - 1), new Date());
  if (next && next.getTime() - claimed.created_at.getTime() <= MAIL_GIVE_UP_AFTER_MS) {
    await update('next_attempt_at = $4, last_error = $5', [next, error]);
    return 'retry';
  }
  await update("status = 'failed', finished_at = now(), last_error = $4, params = params - 'linkToken'", [error]);
  return outcome.final ? 'rejected' : 'expired';
}
