import Papa from 'papaparse';
import type { TransactionJson } from '@libs/contracts';
import { startSystem, type RunningSystem } from '@libs/testing';
import { checkAgainstContract } from './contract';
import { pdfText, type PdfText } from './documents/pdf-text';
import { DEMO_STUDENT_ID, fixtures } from './finance-fixtures';
import { api, validTransaction } from './http';

const INSTITUTION = 'Ysgol Feddygol Caerdydd, Bursary';

/** Minor units as the documents write them: an independent spelling of the gateway's decimalOf. */
const decimal = (minor: number) => `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;

/**
 * Text a spreadsheet would run as a formula, and text that tests the quoting. (A leading tab or CR cannot reach a
 * record: the API trims text; documents/csv.spec.ts covers them.)
 */
const HOSTILE = ['=HYPERLINK("http://evil.example","x")', '+1+2', '-2+3', '@SUM(A1:A2)', 'a "quoted", comma', 'line\r\nbreak', 'Zürich – ünïcode 😀'];
/** OWASP's neutralisation: a leading apostrophe on a cell that starts like a formula. */
const neutralised = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** Finance documents: statements as PDF and CSV, receipts, the ledger as CSV (docs/FINANCE.md, "Documents"). */
describe('finance documents', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ env: { gateway: { INSTITUTION_NAME: INSTITUTION } } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  const call = (path: string, options: Parameters<typeof api>[2] = {}) => api(system.gatewayUrl, path, { key: system.keys.bursar, ...options });

  /** A document as a client downloads it: the bytes as they came, the answer checked against the OpenAPI document. */
  const download = async (path: string, key = system.keys.bursar): Promise<Download> => {
    const response = await fetch(`${system.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const bytes = Buffer.from(await response.arrayBuffer());
    const type = response.headers.get('content-type');
    const body = type?.startsWith('application/problem+json') ? JSON.parse(bytes.toString()) : bytes.toString('latin1');
    await checkAgainstContract(system.gatewayUrl, 'GET', path, response.status, type, body);
    return { status: response.status, headers: response.headers, bytes };
  };

  const rowStartingWith = (text: PdfText, first: string) => text.rows.find((row) => row.texts[0] === first)?.texts;
  const factOf = (text: PdfText, label: string) =>
    text.rows.map((row) => row.texts.join('')).find((row) => row.startsWith(`${label}: `))?.slice(label.length + 2);

  it('a statement as PDF and as CSV carries every line and figure of the JSON answer', async () => {
    const student = await fixtures(system).student();
    const registration = (await call(`/api/v1/finance/registration-numbers/${student.registrationNumberId}`)).body;
    const statementPath = `/api/v1/finance/students/${student.id}/statement`;
    for (const [i, description] of HOSTILE.entries()) {
      await call(statementPath, { method: 'POST', body: { date: `2026-09-${String(i + 1).padStart(2, '0')}`, description, debit: 1_000 + i * 37 } });
    }
    const payment = await fixtures(system).acceptedPayment(student.id, 123_456);
    await call(`/api/v1/transactions/payments/${payment.id}/reverse`, { method: 'POST', body: { reason: 'bounced' } });
    const json = (await call(statementPath)).body;
    expect(json.lines).toHaveLength(HOSTILE.length + 2);

    const pdf = await download(`${statementPath}?format=pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="ST-\d{8}-[0-9A-F]{10}\.pdf"$/);
    const text = await pdfText(pdf.bytes);
    expect(text.rows[0].texts.join('')).toBe(INSTITUTION);
    expect(factOf(text, 'Student')).toBe(student.id);
    expect(factOf(text, 'Registration number')).toBe(registration.number);
    const number = factOf(text, 'Document number');
    expect(number).toBe(pdf.headers.get('x-document-number'));
    const sha = text.rows.map((row) => row.texts.join('')).find((row) => row.startsWith('Content SHA-256: '));
    expect(sha).toBe(`Content SHA-256: ${pdf.headers.get('x-document-sha256')}`);
    expect(number).toContain(pdf.headers.get('x-document-sha256')?.slice(0, 10).toUpperCase());
    const tableRows = text.rows.filter((row) => /^\d{4}-\d{2}-\d{2}$/.test(row.texts[0]));
    expect(tableRows.map((row) => [row.texts[0], ...row.texts.slice(-3)])).toEqual(
      json.lines.map((line: { date: string; debit: number; credit: number; balance: number }) => [
        line.date,
        decimal(line.debit),
        decimal(line.credit),
        decimal(line.balance),
      ]),
    );
    expect(rowStartingWith(text, 'Balance')).toEqual(['Balance', decimal(json.balance)]);

    // The same content is the same document; a new line makes another.
    const again = await download(`${statementPath}?format=pdf`);
    expect(again.headers.get('x-document-number')).toBe(number);
    await call(statementPath, { method: 'POST', body: { date: '2026-12-01', description: 'Library fine', debit: 500 } });
    expect((await download(`${statementPath}?format=pdf`)).headers.get('x-document-number')).not.toBe(number);

    const csv = await download(`${statementPath}?format=csv`);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csvText = csv.bytes.toString('utf8');
    expect(csvText.endsWith('\r\n')).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(csvText.slice(1), { header: true, skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const now = (await call(statementPath)).body;
    expect(parsed.data).toEqual(
      now.lines.map((line: { id: string; date: string; description: string; debit: number; credit: number; balance: number; reversalOf: string | null }) => ({
        date: line.date,
        description: neutralised(line.description),
        debit: decimal(line.debit),
        credit: decimal(line.credit),
        balance: decimal(line.balance),
        lineId: line.id,
        reversalOf: line.reversalOf ?? '',
      })),
    );
    // Every hostile description is there, neutralised where a spreadsheet would have run it.
    expect(parsed.data.slice(0, HOSTILE.length).map((row) => row.description)).toEqual(HOSTILE.map(neutralised));
  });

  it('a statement of 300 lines runs over pages, every line in order', async () => {
    const student = await fixtures(system).student();
    const statementPath = `/api/v1/finance/students/${student.id}/statement`;
    await Promise.all(
      Array.from({ length: 10 }, async (_, worker) => {
        for (let i = worker; i < 300; i += 10) {
          const day = `2026-${String(1 + Math.floor(i / 28) % 12).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
          const response = await call(statementPath, { method: 'POST', body: { date: day, description: `Line ${i}`, ...(i % 3 ? { debit: i + 1 } : { credit: 7 * i + 1 }) } });
          if (response.status !== 201) throw new Error(`line ${i}: ${response.status}`);
        }
      }),
    );
    const json = (await call(statementPath)).body;
    const text = await pdfText((await download(`${statementPath}?format=pdf`)).bytes);
    expect(text.pages).toBeGreaterThan(4);
    const tableRows = text.rows.filter((row) => /^\d{4}-\d{2}-\d{2}$/.test(row.texts[0]));
    expect(tableRows.map((row) => row.texts.at(-1))).toEqual(json.lines.map((line: { balance: number }) => decimal(line.balance)));
  }, 120_000);

  it('a receipt for an accepted payment only, to its student and finance staff', async () => {
    const accepted = await fixtures(system).acceptedPayment(DEMO_STUDENT_ID, 98_765);
    for (const key of [system.keys.student, system.keys.bursar, system.keys.admin]) {
      const receipt = await download(`/api/v1/transactions/payments/${accepted.id}/receipt`, key);
      expect(receipt.status).toBe(200);
      expect(receipt.headers.get('content-disposition')).toMatch(/^attachment; filename="RC-\d{8}-[0-9A-F]{10}\.pdf"$/);
      const text = await pdfText(receipt.bytes);
      expect(text.rows[0].texts.join('')).toBe(INSTITUTION);
      expect(factOf(text, 'Payment')).toBe(accepted.id);
      expect(factOf(text, 'Student')).toBe(DEMO_STUDENT_ID);
      expect(rowStartingWith(text, '2026-10-01')).toEqual(['2026-10-01', 'Bank transfer', decimal(98_765)]);
      expect(rowStartingWith(text, 'Amount received')).toEqual(['Amount received', decimal(98_765)]);
    }
    expect((await download(`/api/v1/transactions/payments/${accepted.id}/receipt?format=pdf`)).status).toBe(200);
    expect((await download(`/api/v1/transactions/payments/${accepted.id}/receipt?format=csv`)).status).toBe(400);

    const pending = await fixtures(system).pendingPayment();
    expect((await download(`/api/v1/transactions/payments/${pending.id}/receipt`)).status).toBe(409);
    const rejected = await fixtures(system).processedPayment();
    expect((await download(`/api/v1/transactions/payments/${rejected.id}/receipt`)).status).toBe(409);
    await call(`/api/v1/transactions/payments/${accepted.id}/reverse`, { method: 'POST', body: { reason: 'bounced' } });
    expect((await download(`/api/v1/transactions/payments/${accepted.id}/receipt`)).status).toBe(409);

    const someoneElses = await fixtures(system).acceptedPayment((await fixtures(system).student()).id);
    expect((await download(`/api/v1/transactions/payments/${someoneElses.id}/receipt`, system.keys.student)).status).toBe(404);
    expect((await download(`/api/v1/transactions/payments/${someoneElses.id}/receipt`, system.keys.reader)).status).toBe(403);
  });

  it('the transactions of a date range as CSV, across pages, as the JSON list shows them', async () => {
    const year = 2_900 + Math.floor(Math.random() * 90);
    const items = Array.from({ length: 1_100 }, (_, i) =>
      validTransaction({
        date: `${year}-0${1 + (i % 9)}-1${i % 10}`,
        amount: i % 2 ? -(i * 101) : i * 7,
        payee: HOSTILE[i % HOSTILE.length],
        notes: i % 5 ? null : HOSTILE[(i + 1) % HOSTILE.length],
        ...(i % 4 ? {} : { studentId: DEMO_STUDENT_ID }),
      }),
    );
    for (const half of [items.slice(0, 550), items.slice(550)]) {
      expect((await call('/api/v1/transactions/bulk-create', { method: 'POST', body: half })).status).toBe(201);
    }
    const first = (await call(`/api/v1/transactions?from=${year}-01-01&limit=1`)).body.transactions[0];
    await call('/api/v1/transactions/reversals', { method: 'POST', body: { transactionId: first.id, reason: '=1+1' } });

    const listed = async (key: string) => {
      const all: TransactionJson[] = [];
      let cursor = '';
      do {
        const page = (await call(`/api/v1/transactions?from=${year}-01-01&to=${year}-12-31&limit=500${cursor && `&cursor=${cursor}`}`, { key })).body;
        all.push(...page.transactions);
        cursor = page.nextCursor ?? '';
      } while (cursor);
      return all;
    };
    const exported = async (key: string) => {
      const csv = await download(`/api/v1/transactions/export?from=${year}-01-01&to=${year}-12-31`, key);
      expect(csv.status).toBe(200);
      expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const parsed = Papa.parse<Record<string, string>>(csv.bytes.toString('utf8').slice(1), { header: true, skipEmptyLines: true });
      expect(parsed.errors).toEqual([]);
      return parsed.data;
    };
    const asCsv = (t: TransactionJson) => ({
      id: t.id,
      date: t.date,
      accountId: t.accountId,
      account: neutralised(t.account.name),
      categoryId: t.categoryId,
      category: neutralised(t.category.name),
      payee: neutralised(t.payee),
      amount: decimal(t.amount),
      notes: t.notes === null ? '' : neutralised(t.notes),
      studentId: t.studentId ?? '',
      reversalOf: t.reversalOf ?? '',
      reversedBy: t.reversedBy ?? '',
      madeBy: t.madeBy,
      createdAt: t.createdAt,
    });
    const bursars = await listed(system.keys.bursar);
    // The reversal is dated today, outside the range; the original shows it is reversed.
    expect(bursars).toHaveLength(1_100);
    const bursarsCsv = await exported(system.keys.bursar);
    expect(bursarsCsv).toEqual(bursars.map(asCsv));
    expect(bursarsCsv.filter((row) => row.reversedBy !== '').map((row) => row.id)).toEqual([first.id]);
    // A student exports only their own.
    const students = await listed(system.keys.student);
    expect(students.length).toBeGreaterThan(200);
    expect(await exported(system.keys.student)).toEqual(students.map(asCsv));

    expect((await download(`/api/v1/transactions/export?from=${year}-02-30`)).status).toBe(400);
    expect((await download('/api/v1/transactions/export?format=pdf')).status).toBe(400);
    expect((await download('/api/v1/transactions/export', system.keys.reader)).status).toBe(403);
  });

  it('refuses an unknown format and another student’s statement', async () => {
    expect((await download(`/api/v1/finance/students/${DEMO_STUDENT_ID}/statement?format=xml`)).status).toBe(400);
    const other = await fixtures(system).student();
    expect((await download(`/api/v1/finance/students/${other.id}/statement?format=pdf`, system.keys.student)).status).toBe(404);
    expect((await download(`/api/v1/finance/students/${other.id}/statement?format=csv`, system.keys.student)).status).toBe(404);
  });
});
