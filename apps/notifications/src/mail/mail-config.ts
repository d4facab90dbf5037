import { z } from 'zod';
import addressparser from 'nodemailer/lib/addressparser';
import { env } from '@libs/config';
import { retryScheduleField } from '../retry-schedule-field';

/** Where `npm start`'s mail catcher listens (tools/dev/mail-catcher.ts): the development default of SMTP_URL. */
export const CATCHER_SMTP_URL = 'smtp://127.0.0.1:1025';
const DEVELOPMENT = process.env.NODE_ENV !== 'production';

/** One mailbox (`Name <address>` or an address) with no control character: it is written into every From header. */
const mailbox = z
  .string()
  .max(320)
  // eslint-disable-next-line no-control-regex
  .refine((text) => !/[\u0000-\u001f\u007f]/.test(text), 'must not hold control characters')
  .refine((text) => {
    const parsed = addressparser(text, { flatten: true });
    return parsed.length === 1 && /^[^@\s]+@[^@\s]+$/.test(parsed[0]?.address ?? '');
  }, 'must be one mailbox: `Name <address@example.org>` or `address@example.org`');

/** The mail settings of the notifications service (docs/NOTIFICATIONS.md, "Configuration"). */
export const mailFields = {
  SMTP_URL: (DEVELOPMENT ? env.url(CATCHER_SMTP_URL, ['smtp:', 'smtps:']) : env.optionalUrl(['smtp:', 'smtps:']))
    .meta({ shownDefault: '`smtp://127.0.0.1:1025` (the mail catcher of `npm start`); none when `NODE_ENV=production`' })
    .describe('the mail server: `smtp://` (STARTTLS when offered) or `smtps://`, with credentials in the URL (`smtps://user:password@host:465`)'),
  MAIL_FROM: (DEVELOPMENT ? mailbox.default('Clinical reference <no-reply@localhost>') : mailbox.optional())
    .meta({ shownDefault: '`Clinical reference <no-reply@localhost>`; none when `NODE_ENV=production`' })
    .describe("the From of every mail; with SMTP_URL it turns mail on (in production both must be set, or neither, which sends no mail)"),
  MAIL_RETRY_SCHEDULE: retryScheduleField('0s,1m,5m,15m,1h,2h').describe(
    'waits before each attempt at a mail, the first before the first; after the last the last wait repeats, until the mail is 24 h old (units ms, s, m, h)',
  ),
  MAIL_CONCURRENCY: env.int(8, 1, 100).describe('mails this instance sends at once'),
  MAIL_POLL_MS: env.int(1_000, 10, 60_000).describe("pause between looks for due mail when there was none (this instance's own new mail wakes it at once)"),
  MAIL_TIMEOUT_MS: env.int(30_000, 1_000, 120_000).describe('the whole of one attempt at a mail: connecting, the SMTP dialogue and the message'),
  UNSUBSCRIBE_SECRET: env.secret('dev-only-notifications-unsubscribe-secret').describe(
    'HMAC key that signs the one-click unsubscribe links of mail (RFC 8058); required, ≥ 16 characters, when `NODE_ENV=production`',
  ),
};

/** In production mail needs both settings: one without the other is a mistake, refused at start-up. */
export function refineMailFields(config: { SMTP_URL?: string; MAIL_FROM?: string }, context: z.RefinementCtx): void {
  if ((config.SMTP_URL === undefined) !== (config.MAIL_FROM === undefined)) {
    context.addIssue({ code: 'custom', path: [config.SMTP_URL === undefined ? 'SMTP_URL' : 'MAIL_FROM'], message: 'must be set with the other mail setting, or neither' });
  }
}
