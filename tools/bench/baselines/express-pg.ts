/**
 * The single-process floor: Express 5 answering the gateway's disease and drug
 * searches and transaction create straight from PostgreSQL, with no gateway, no gRPC
 * hop and no API keys. Disease search runs the reference service's own SQL and
 * ranking (@libs/reference-db); a create inserts the transaction and its outbox
 * event in one database transaction, as finance does (the event marked sent,
 * so that the system's relay and audit do no work for the baseline).
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { createSequelize } from '@libs/db';
import { REFERENCE_LIMITS } from '@libs/contracts';
import {
  DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS,
  DISEASE_TERMS,
  diseasesByPk,
  DRUG_TERMS,
  foldText,
  fuzzyPage,
  listDiseases,
  type DiseaseName,
} from '@libs/reference-db';

const POOL = 10; // DB_POOL_MAX's default: the pool each service runs with.
function databaseUrl(name: string): string {
  const url = process.env[name];
  if (!url) throw new Error(`${name} is not set`);
  return url;
}
// The reference service's search, with its default statement timeout.
const reference = { sequelize: createSequelize(databaseUrl('REFERENCE_DATABASE_URL'), POOL), statementTimeoutMs: DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS };
const finance = createSequelize(databaseUrl('FINANCE_DATABASE_URL'), POOL);

// The gateway's answer for r=false (what the benchmark's searches ask): names alone, which the reference then
// reads alone too (names_only).
const summary = (row: DiseaseName) => ({ Disease_Name: row.name });

async function searchDiseases(req: Request, res: Response): Promise<void> {
  const term = String(req.query.n ?? '').trim().toLowerCase();
  const exact = req.query.e === 'true';
  const limit = 25;
  const rows =
    term && !exact
      ? await diseasesByPk(reference, (await fuzzyPage(reference, DISEASE_TERMS, term, 'relevance', limit)).pks, 'names')
      : await listDiseases(reference, { exactTerm: term || undefined, order: 'id', limit }, 'names');
  if (rows.length === 0) {
    res.status(404).type('application/problem+json').json({ title: 'Not Found', status: 404 });
    return;
  }
  res.json({ diseases: rows.map(summary) });
}

/** The drug search as the reference runs it (folded query, one ranked page), and the page's drug rows by id. */
async function searchDrugs(req: Request, res: Response): Promise<void> {
  const term = foldText(String(req.query.n ?? ''));
  const { pks } = await fuzzyPage(reference, DRUG_TERMS, term, 'relevance', REFERENCE_LIMITS.drugPage);
  const [rows] = await reference.sequelize.query('SELECT t.* FROM drugs t WHERE t.id = ANY($1::bigint[])', { bind: [pks] });
  res.json({ drugs: rows });
}

async function createTransaction(req: Request, res: Response): Promise<void> {
  const body = req.body as Record<string, unknown>;
  const created = await finance.transaction(async (transaction) => {
    const [rows] = await finance.query(
      `INSERT INTO transactions (id, date, category_id, payee, amount, notes, account_id, made_by)
       VALUES ($1, $2, $3, $4, $5, '', $6, 'baseline') RETURNING *`,
      { bind: [randomUUID(), body.date, body.categoryId, body.payee, body.amount, body.accountId], transaction },
    );
    const event = { eventId: randomUUID(), action: 'transaction.created', after: rows[0] };
    // Written as already published: the baseline measures the insert, not the system's relay and audit.
    await finance.query(
      `INSERT INTO outbox (event_id, routing_key, payload, request_id, published_at) VALUES ($1, $2, $3::jsonb, $4, now())`,
      {
      bind: [event.eventId, event.action, JSON.stringify(event), event.eventId],
      transaction,
      },
    );
    return rows[0];
  });
  res.status(201).json({ transaction: created });
}

const app = express();
app.use(express.json());
app.get('/api/v1/diseases', searchDiseases);
app.get('/api/v1/drugs', searchDrugs);
app.post('/api/v1/transactions', createTransaction);
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
