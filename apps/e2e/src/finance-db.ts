import { auditEventSchema } from '@libs/contracts';
import { withPgClient, type RunningSystem } from '@libs/testing';

const TABLES = ['transactions', 'outbox', 'payments', 'financial_statements', 'idempotency_keys', 'accounts', 'students'] as const;
export type FinanceCounts = Record<(typeof TABLES)[number], number>;

const withFinanceDb = <T>(system: RunningSystem, work: Parameters<typeof withPgClient<T>>[1]) =>
  withPgClient(system.databaseUrl('finance'), work);

/** Row counts of the finance database, read directly, to prove what a request did or did not write. */
export async function financeCounts(system: RunningSystem): Promise<FinanceCounts> {
  const select = TABLES.map((table) => `(SELECT count(*)::int FROM ${table}) AS ${table}`).join(', ');
  return withFinanceDb(system, async (client) => (await client.query(`SELECT ${select}`)).rows[0] as FinanceCounts);
}

/** The outbox events written after a given outbox row count; each must fit the audit event schema. */
export async function outboxActionsSince(system: RunningSystem, count: number): Promise<{ action: string; entityIds: string[] }[]> {
  const { rows } = await withFinanceDb(system, (client) => client.query('SELECT payload FROM outbox ORDER BY id OFFSET $1', [count]));
  return rows.map((row) => {
    const event = auditEventSchema.parse(row.payload);
    return { action: event.action, entityIds: event.entityIds };
  });
}

/** Makes every stored Idempotency-Key look older than it is, to test the 24 h lifetime without waiting. */
export async function ageIdempotencyKeys(system: RunningSystem, hours: number): Promise<void> {
  await withFinanceDb(system, (client) => client.query(`UPDATE idempotency_keys SET created_at = now() - make_interval(hours => $1)`, [hours]));
}
