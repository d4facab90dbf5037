import type { Migration } from '@libs/db';

export const m0002Mail: Migration = {
  name: '0002-mail',
  async up({ context }) {
    await context.sequelize.query(`
      -- The recipients read model (identity.events): where a user's mail goes, whether they proved the address, and
      -- when the latest identity event applied happened (an older one redelivered later changes nothing). muted:
      -- the categories the user turned off (preferences, one-click unsubscribe).
      ALTER TABLE recipients
        ADD COLUMN email text,
        ADD COLUMN email_verified boolean NOT NULL DEFAULT false,
        ADD COLUMN identity_at timestamptz,
        ADD COLUMN muted text[] NOT NULL DEFAULT '{}';

      -- The names an appointment mail shows (and its iTIP part, as the .ics does): services' and locations', from
      -- scheduling's events.
      CREATE TABLE calendar_names (
        kind       text NOT NULL CHECK (kind IN ('service', 'location')),
        id         text NOT NULL,
        name       text NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (kind, id)
      );

      -- Outgoing mail. One row per (cause, recipient, template) whatever is redelivered: cause is the event id, or
      -- the gateway's id of an account mail. params is what the template needs, read when the mail is sent (a
      -- one-time token is removed once it is). A pending row is due at next_attempt_at; a sender claims it with a
      -- lease (lease_owner, lease_until), which another instance takes over once it has run out.
      CREATE TABLE mails (
        id              uuid PRIMARY KEY,
        cause           text NOT NULL,
        recipient       text NOT NULL,
        template        text NOT NULL,
        category        text NOT NULL,
        to_address      text NOT NULL,
        params          jsonb NOT NULL,
        status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempt_count   integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_owner     uuid,
        lease_until     timestamptz,
        last_error      text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        finished_at     timestamptz,
        UNIQUE (cause, recipient, template)
      );
      CREATE INDEX mails_due ON mails (next_attempt_at) WHERE status = 'pending';
      -- The per-address limits count an address's recent mails of one template.
      CREATE INDEX mails_address ON mails (lower(to_address), template, created_at);
    `);
  },
  async down({ context }) {
    await context.sequelize.query('DROP TABLE mails, calendar_names; ALTER TABLE recipients DROP COLUMN email, DROP COLUMN email_verified, DROP COLUMN identity_at, DROP COLUMN muted;');
  },
};
