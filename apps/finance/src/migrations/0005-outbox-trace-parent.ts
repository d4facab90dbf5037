import type { Migration } from '@libs/db';

export const m0005OutboxTraceParent: Migration = {
  name: '0005-outbox-trace-parent',
  async up({ context }) {
    await context.sequelize.query(`
      -- The W3C traceparent of the call that wrote the event, sent on as an AMQP
      -- header, so the audit entry can name the trace that caused it.
      ALTER TABLE outbox ADD COLUMN trace_parent text;
    `);
  },
  async down({ context }) {
    await context.sequelize.query('ALTER TABLE outbox DROP COLUMN trace_parent;');
  },
};
