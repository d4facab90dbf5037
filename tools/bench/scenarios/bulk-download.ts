import { Client } from 'pg';
import { bearer, type BenchContext, type Scenario } from '../context';

/** The datasets the issue measures, and the table whose rows are their lines. */
const DATASETS = [
  ['diseases', 'diseases'],
  ['drugs', 'drugs'],
] as const;

async function rowsOf(context: BenchContext, table: string): Promise<number> {
  const client = new Client({ connectionString: context.databaseUrl('reference') });
  await client.connect();
  try {
    return Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  } finally {
    await client.end();
  }
}

/**
 * The full NDJSON export of diseases and drugs, gzipped as a client that accepts it gets it: one request each, so
 * its latency is the export's duration. Peak RSS per service is the report's, for this phase (the issue asks for
 * the gateway's and the reference service's).
 */
export const bulkDownload: Scenario = async (context) => {
  for (const [dataset, table] of DATASETS) {
    const rows = await rowsOf(context, table);
    const result = context.record({
      scenario: `bulk download of ${dataset}, ${rows.toLocaleString('en')} rows, gzipped NDJSON`,
      target: 'system',
      result: await context.load(
        context.gatewayUrl,
        [{ path: `/api/v1/bulk/${dataset}`, headers: { ...bearer(context.keys.reader), 'accept-encoding': 'gzip' } }],
        { connections: 1, amount: context.smoke ? 2 : 5, timeout: 600 },
      ),
    });
    context.note(`bulk download rate, ${dataset}`, Math.round(rows / (result.p50Ms / 1000)), 'rows/s');
  }
};
