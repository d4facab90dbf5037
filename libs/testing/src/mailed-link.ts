import { withPgClient } from './pg-client';
import type { RunningSystem } from './system';
import { waitFor } from './wait-for';

export type AccountTemplate = 'verify_email' | 'password_reset';

/**
 * The one-time token of the newest account mail of a template to an address, read where the mail is now: stored by
 * the notifications service (QueueAccountMail), or still waiting in the gateway's database when notifications does
 * not run in this test system. What a person would find in their mailbox's link.
 */
export function mailedLinkToken(system: Pick<RunningSystem, 'databaseUrl'>, email: string, template: AccountTemplate): Promise<string> {
  const newest = async (service: 'notifications' | 'gateway', sql: string) =>
    withPgClient(system.databaseUrl(service), async (client) => (await client.query<{ token: string | null }>(sql, [email, template])).rows[0]?.token ?? undefined).catch(
      () => undefined,
    );
  return waitFor(`the ${template} mail to ${email}`, async () =>
    (await newest(
      'notifications',
      `SELECT params->>'linkToken' AS token FROM mails WHERE lower(to_address) = lower($1) AND template = $2 ORDER BY created_at DESC LIMIT 1`,
    )) ??
    (await newest(
      'gateway',
      'SELECT link_token AS token FROM account_mails WHERE email = lower($1) AND template = $2 AND link_token IS NOT NULL ORDER BY created_at DESC LIMIT 1',
    )),
  );
}

/** Proves an address the way its owner does: the token of the verification mail, sent to `POST /api/v1/auth/verify-email`. */
export async function verifyEmail(system: Pick<RunningSystem, 'databaseUrl' | 'gatewayUrl'>, email: string): Promise<void> {
  const token = await mailedLinkToken(system, email, 'verify_email');
  const response = await fetch(`${system.gatewayUrl}/api/v1/auth/verify-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  if (response.status !== 204) throw new Error(`verify-email answered ${response.status}: ${await response.text()}`);
}
