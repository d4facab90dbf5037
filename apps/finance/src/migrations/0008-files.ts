import type { Migration } from '@libs/db';

export const m0008Files: Migration = {
  name: '0008-files',
  async up({ context }) {
    await context.sequelize.query(`
      -- Files uploaded to be named by a payment (docs/decisions/0020). A row exists from the first byte, so that a
      -- refused or abandoned upload is found and deleted (complete stays false); content_type, size and sha256 are
      -- known once the last byte is checked. payment_id is set when a payment names the file, in its transaction.
      CREATE TABLE files (
        id            uuid PRIMARY KEY,
        purpose       text NOT NULL,
        name          text NOT NULL,
        uploaded_by   text NOT NULL,
        storage       text NOT NULL CHECK (storage IN ('postgres', 's3')),
        complete      boolean NOT NULL DEFAULT false,
        content_type  text,
        size          bigint,
        sha256        text,
        payment_id    uuid REFERENCES payments (id),
        position      smallint,
        created_at    timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX files_payment ON files (payment_id, position) WHERE payment_id IS NOT NULL;
      CREATE INDEX files_unlinked ON files (created_at) WHERE payment_id IS NULL;

      -- The embedded storage: each file in chunks of a fixed size (the last shorter), so a range is a few rows.
      CREATE TABLE file_chunks (
        file_id  uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
        seq      integer NOT NULL,
        data     bytea NOT NULL,
        PRIMARY KEY (file_id, seq)
      );
    `);
  },
  async down({ context }) {
    await context.sequelize.query(`DROP TABLE file_chunks; DROP TABLE files;`);
  },
};
