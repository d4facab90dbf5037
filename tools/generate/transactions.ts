import { Client } from 'pg';

const CHUNK = 1_000_000;

/**
 * Adds `count` synthetic transactions to a finance database, shaped like real
 * ones: dates spread over 2020–2026, a handful of accounts and categories,
 * amounts in minor units of both signs. The rows are made inside PostgreSQL by
 * set-based INSERT … SELECT over generate_series, a million a statement: no
 * row-by-row round trips and no data through the client, as fast as COPY.
 * They are bulk-loaded history, so they bypass the outbox and the audit log.
 */
export async function generateTransactions(databaseUrl: string, count: number, log: (line: string) => void): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      INSERT INTO accounts (id, name)
      SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, 'Generated account ' || n
        FROM generate_series(1, 20) AS n ON CONFLICT (id) DO NOTHING;
      INSERT INTO categories (id, name)
      SELECT ('00000000-0000-4000-9000-' || lpad(to_hex(n), 12, '0'))::uuid, 'Generated category ' || n
        FROM generate_series(1, 12) AS n ON CONFLICT (id) DO NOTHING`);
    for (let done = 0; done < count; done += CHUNK) {
      const size = Math.min(CHUNK, count - done);
      const started = Date.now();
      await client.query(
        `INSERT INTO transactions (date, category_id, payee, amount, notes, account_id, made_by)
         SELECT date '2020-01-01' + (random() * 2400)::int,
                ('00000000-0000-4000-9000-' || lpad(to_hex(1 + (n % 12)), 12, '0'))::uuid,
                (ARRAY['Registrar', 'Library', 'Residence office', 'Cafeteria', 'Bookshop', 'Sports centre'])[1 + n % 6],
                CASE WHEN n % 5 = 0 THEN (random() * 500000)::bigint ELSE -(random() * 250000)::bigint END,
                '',
                ('00000000-0000-4000-8000-' || lpad(to_hex(1 + (n % 20)), 12, '0'))::uuid,
                'generator'
           FROM generate_series(1, $1::int) AS n`,
        [size],
      );
      log(`transactions: ${(done + size).toLocaleString('en')} of ${count.toLocaleString('en')} (${Date.now() - started} ms)`);
    }
    await client.query('ANALYZE transactions');
  } finally {
    await client.end();
  }
}
