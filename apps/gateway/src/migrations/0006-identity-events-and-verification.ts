import type { Migration } from '@libs/db';
import { OUTBOX_TABLES } from '@libs/outbox';

/**
 * identity.events and proved email addresses (docs/IDENTITY.md):
 * - the outbox (libs/outbox), as finance and scheduling have it, for the identity area's changes;
 * - `users.email_verified`. Accounts of the time that an admin gave a role other than reader count as verified
 *   (the admin vouched for them); readers do not, and prove their address by a password reset like anyone;
 * - `account_tokens`: the one-time tokens of verification and reset, only as SHA-256 hashes;
 * - `account_mails`: each account mail until the notifications service has stored it. The raw token waits here
 *   (the mail cannot be made without it) and is erased once notifications accepted the mail;
 * - one `user.registered` event per account of the time, so that the consumers' read models know every user. The
 *   event is written in its version 4 shape, spelled out: a migration must mean the same on every run.
 */
export const m0006IdentityEventsAndVerification: Migration = {
  name: '0006-identity-events-and-verification',
  async up({ context }) {
    await context.sequelize.query(`
      ${OUTBOX_TABLES}

      ALTER TABLE users ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
      UPDATE users SET email_verified = true WHERE role <> 'reader' OR password_hash IS NULL;

      CREATE TABLE account_tokens (
        id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose    text NOT NULL CHECK (purpose IN ('verify_email', 'password_reset')),
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at    timestamptz
      );
      CREATE INDEX account_tokens_by_user ON account_tokens (user_id, purpose);

      CREATE TABLE account_mails (
        id           uuid PRIMARY KEY,
        template     text NOT NULL CHECK (template IN ('verify_email', 'password_reset', 'registration_attempt')),
        email        text NOT NULL,
        user_id      uuid REFERENCES users (id) ON DELETE CASCADE,
        link_token   text,
        created_at   timestamptz NOT NULL DEFAULT now(),
        attempts     integer NOT NULL DEFAULT 0,
        next_attempt timestamptz NOT NULL DEFAULT now(),
        last_error   text,
        handed_at    timestamptz,
        queued       boolean
      );
      CREATE INDEX account_mails_pending ON account_mails (next_attempt) WHERE handed_at IS NULL;

      INSERT INTO outbox (event_id, routing_key, payload, request_id)
      SELECT event_id, 'user.registered', jsonb_build_object(
               'eventId', event_id,
               'occurredAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'action', 'user.registered',
               'entityType', 'user',
               'entityIds', jsonb_build_array(id),
               'actor', jsonb_build_object('userId', 'gateway', 'role', 'system'),
               'requestId', 'migration-0006',
               'schemaVersion', 4,
               'subjects', jsonb_build_array(id),
               'before', NULL,
               'after', jsonb_build_object(
                 'id', id, 'email', email, 'role', role, 'emailVerified', email_verified,
                 'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
             'migration-0006'
        FROM (SELECT gen_random_uuid() AS event_id, * FROM users ORDER BY created_at, id) AS existing;
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`
      DROP TABLE account_mails;
      DROP TABLE account_tokens;
      ALTER TABLE users DROP COLUMN email_verified;
      DROP TABLE outbox_queue_watch;
      DROP TABLE outbox;
    `);
  },
};
