import addressparser from 'nodemailer/lib/addressparser';
import type { Sequelize } from 'sequelize';
import type { Logger } from '@libs/logging';
import type { NotificationsConfig } from '../config';
import { MailSender } from './mail-sender';
import type { RenderSettings } from './render-mail';
import { UnsubscribeTokens } from './unsubscribe-token';

/** The public route of one-click unsubscribe links, on the gateway (apps/gateway/src/mail-preferences). */
export const UNSUBSCRIBE_PATH = '/api/v1/notifications/unsubscribe/';

/** How mail is rendered: the From, where links lead, and how unsubscribe links are signed. */
export function renderSettingsOf(config: Pick<NotificationsConfig, 'PUBLIC_API_URL' | 'UNSUBSCRIBE_SECRET'>, from: string): RenderSettings {
  const base = config.PUBLIC_API_URL.replace(/\/+$/, '');
  const tokens = new UnsubscribeTokens(config.UNSUBSCRIBE_SECRET);
  const [mailbox] = addressparser(from, { flatten: true });
  return {
    from: { name: mailbox?.name ?? '', address: mailbox?.address ?? '' },
    links: { dashboard: `${base}/dashboard/` },
    unsubscribeUrl: (userId, category) => `${base}${UNSUBSCRIBE_PATH}${tokens.sign(userId, category)}`,
  };
}

/**
 * The mail sender, or none when mail is not configured (production without SMTP_URL and MAIL_FROM): mail is then
 * still stored, and waits until a sender with settings starts.
 */
export function mailSenderOf(config: NotificationsConfig, logger: Logger, sequelize: Sequelize): MailSender | undefined {
  if (config.SMTP_URL === undefined || config.MAIL_FROM === undefined) {
    logger.warn('SMTP_URL and MAIL_FROM are not set: no mail is sent (it is stored, and waits)');
    return undefined;
  }
  return new MailSender({
    sequelize,
    logger,
    smtpUrl: config.SMTP_URL,
    render: renderSettingsOf(config, config.MAIL_FROM),
    schedule: config.MAIL_RETRY_SCHEDULE,
    timeoutMs: config.MAIL_TIMEOUT_MS,
    concurrency: config.MAIL_CONCURRENCY,
    pollMs: config.MAIL_POLL_MS,
  });
}
