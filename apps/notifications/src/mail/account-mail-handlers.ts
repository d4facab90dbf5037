import { randomUUID } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import { z } from 'zod';
import { IDENTITY_LIMITS, MAIL_LIMITS, type notificationsV1 } from '@libs/contracts';
import { requireGateway, type CallContext } from '@libs/grpc';
import { parseInput } from '@libs/validation';
import type { NotificationsDeps } from '../deps';
import { writeTransaction } from '../house';

/** The account mails: each carries a one-time token (or none), so it comes from the gateway rather than an event. */
export const ACCOUNT_TEMPLATES = ['verify_email', 'password_reset', 'registration_attempt'] as const;

/** Printable ASCII without spaces: what an id or a token may hold (no NUL, no CR/LF, nothing a link must escape twice). */
const printable = (max: number) => z.string().max(max).regex(/^[\x21-\x7e]*$/, { message: 'must be printable ASCII without spaces' });

const accountMailRequest = z
  .object({
    mailId: printable(MAIL_LIMITS.accountMailIdMaxLength).min(1),
    template: z.enum(ACCOUNT_TEMPLATES),
    email: z.email().max(IDENTITY_LIMITS.emailMaxLength),
    userId: printable(64),
    linkToken: printable(MAIL_LIMITS.linkTokenMaxLength),
  })
  .refine((request) => (request.template === 'registration_attempt') === (request.linkToken === ''), {
    path: ['linkToken'],
    message: 'is required for verify_email and password_reset, and must be empty for registration_attempt',
  });

export function accountMailHandlers(deps: NotificationsDeps) {
  const { sequelize } = deps;
  const isVerifiedAddress = async (email: string, transaction: Transaction) =>
    (
      await sequelize.query('SELECT 1 FROM recipients WHERE lower(email) = lower($1) AND email_verified', {
        bind: [email],
        type: QueryTypes.SELECT,
        transaction,
      })
    ).length > 0;

  return {
    /**
     * Stores the mail for the sender, once per mail id; refused (queued: false) past the per-address limit of its
     * template. Counting and storing take turns per address (an advisory lock), so parallel calls cannot pass it. A
     * "someone tried to register" mail to an address the read model does not know as verified is dropped.
     */
    async queueAccountMail(request: notificationsV1.QueueAccountMailRequest, context: CallContext): Promise<notificationsV1.QueueAccountMailResponse> {
      requireGateway(context);
      const mail = parseInput(accountMailRequest, request);
      return writeTransaction(deps, undefined, async (transaction) => {
        await sequelize.query('SELECT pg_advisory_xact_lock(hashtext(lower($1)))', { bind: [mail.email], transaction });
        const [known] = await sequelize.query('SELECT 1 FROM mails WHERE cause = $1 AND template = $2', {
          bind: [mail.mailId, mail.template],
          type: QueryTypes.SELECT,
          transaction,
        });
        if (known) return { queued: true };
        const [{ recent }] = await sequelize.query<{ recent: number }>(
          `SELECT count(*)::int AS recent FROM mails
            WHERE lower(to_address) = lower($1) AND template = $2 AND created_at > now() - interval '1 hour'`,
          { bind: [mail.email, mail.template], type: QueryTypes.SELECT, transaction },
        );
        if (recent >= MAIL_LIMITS.accountMailsPerAddressPerHour) return { queued: false };
        // Only verification and reset go to an address nobody has proved: the warning waits for a verified owner.
        if (mail.template === 'registration_attempt' && !(await isVerifiedAddress(mail.email, transaction))) return { queued: true };
        const params = { userId: mail.userId, linkToken: mail.linkToken };
        await sequelize.query(
          `INSERT INTO mails (id, cause, recipient, template, category, to_address, params)
           VALUES ($1, $2, $3, $4, 'account', $3, $5::jsonb)`,
          { bind: [randomUUID(), mail.mailId, mail.email, mail.template, JSON.stringify(params)], transaction },
        );
        return { queued: true };
      });
    },
  };
}
