import { Client } from 'pg';
import { auditEventSchema } from '@libs/contracts';
import type { RunningSystem } from '@libs/testing';

const TABLES = ['transactions', 'outbox', 'payments', 'financial_statements', 'idempotency_keys', 'accounts', 'students'] as const;
export type FinanceCounts = Record<(typeof TABLES)[number], number>;

/** Row counts of the finance database, read directly, to prove what a request did or did not write. */
export async function financeCounts(system: RunningSystem): Promise<FinanceCounts> {
  const client = new Client({ connectionString: system.databaseUrl('finance') });
  await client.connect();
  try {
    const select = TABLES.map((table) => `(SELECT count(*)::int FROM ${table}) AS ${table}`).join(', ');
    const { rows } = await client.query(`SELECT ${select}`);
    return rows[0] as FinanceCounts;
  } finally {
    await client.end();
  }
}

/** The outbox events written after a given outbox row count; each must fit the audit event schema. */
export async function outboxActionsSince(system: RunningSystem, count: number): Promise<{ action: string; entityIds: string[] }[]> {
  const client = new Client({ connectionString: system.databaseUrl('finance') });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT payload FROM outbox ORDER BY id OFFSET $1`, [count]);
    return rows.map((row) => {
      const event = auditEventSchema.parse(row.payload);
      return { action: event.action, entityIds: event.entityIds };
    });
  } finally {
    await client.end();
  }
}
