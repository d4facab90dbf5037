import { Client } from 'pg';
import { bearer, type BenchContext, type Scenario } from '../context';

/** Runs statements on one connection to the finance database: the rows are made there, fast, not through the API. */
async function withFinanceDb<T>(context: BenchContext, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: context.databaseUrl('finance') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A student of its own, so that the statement holds exactly the lines the scenario writes. */
const NEW_STUDENT = `WITH r AS (INSERT INTO registration_numbers (number) VALUES ('BENCH-' || gen_random_uuid()) RETURNING id)
  INSERT INTO students (registration_number_id) SELECT id FROM r RETURNING id`;

export const statementPdf: Scenario = async (context) => {
  const lines = 1_000;
  const studentId = await withFinanceDb(context, async (client) => {
    const { rows } = await client.query<{ id: string }>(NEW_STUDENT);
    await client.query(
      `INSERT INTO financial_statements (student_id, date, description, debit, credit)
       SELECT $1, DATE '2026-01-01' + (i % 365), 'Bench line ' || i, CASE WHEN i % 3 = 0 THEN 0 ELSE 100 + i END,
              CASE WHEN i % 3 = 0 THEN 250 + i ELSE 0 END
         FROM generate_series(1, $2::int) AS i`,
      [rows[0].id, lines],
    );
    return rows[0].id;
  });
  context.record({
    scenario: `statement PDF, ${lines} lines`,
    target: 'system',
    result: await context.load(
      context.gatewayUrl,
      [{ path: `/api/v1/finance/students/${studentId}/statement?format=pdf`, headers: bearer(context.keys.bursar) }],
      { connections: 1, amount: context.smoke ? 3 : 50 },
    ),
  });
};

export const transactionsCsv: Scenario = async (context) => {
  const rows = context.smoke ? 20_000 : 1_000_000;
  // A year of its own (the dataset's are 2020–2026), so the export holds exactly these rows.
  await withFinanceDb(context, (client) =>
    client.query(
      `INSERT INTO transactions (date, category_id, payee, amount, notes, account_id, made_by)
       SELECT DATE '2990-01-01' + (i % 365), (SELECT id FROM categories ORDER BY id LIMIT 1), 'Bench payee ' || i,
              CASE WHEN i % 2 = 0 THEN -i ELSE i END, CASE WHEN i % 5 = 0 THEN '=bench ' || i ELSE '' END,
              (SELECT id FROM accounts ORDER BY id LIMIT 1), 'bench'
         FROM generate_series(1, $1::int) AS i`,
      [rows],
    ),
  );
  const result = context.record({
    scenario: `transactions CSV export, ${rows.toLocaleString('en')} rows`,
    target: 'system',
    result: await context.load(
      context.gatewayUrl,
      [{ path: '/api/v1/transactions/export?from=2990-01-01&to=2990-12-31', headers: bearer(context.keys.bursar) }],
      { connections: 1, amount: 1, timeout: 600 },
    ),
  });
  // One request: its latency is the export's duration. Peak RSS per service is the report's, for this phase.
  context.note('transactions CSV export rate', Math.round(rows / (result.p50Ms / 1000)), 'rows/s');
};
