import type { Response } from 'express';
import type { PaymentJson, StatementLineJson } from '@libs/contracts';
import { CSV_BOM, CSV_TYPE, csvRecord } from './csv';
import { decimalOf } from './money';
import { issue, renderPdf, type DocumentContent } from './pdf-document';

/** A student's statement as the JSON answer gives it, with the registration number a document names. */
export interface StatementData {
  studentId: string;
  registrationNumber: string;
  lines: StatementLineJson[];
  balance: number;
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

export function statementContent(statement: StatementData, institution: string): DocumentContent {
  return {
    kind: 'statement',
    title: 'Statement of account',
    institution,
    issuedOn: todayUtc(),
    facts: [
      ['Student', statement.studentId],
      ['Registration number', statement.registrationNumber],
    ],
    table: {
      columns: ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      rows: statement.lines.map((line) => [line.date, line.description, decimalOf(line.debit), decimalOf(line.credit), decimalOf(line.balance)]),
    },
    totals: [['Balance', decimalOf(statement.balance)]],
  };
}

/** Only an accepted payment has a receipt (the caller checks); it names who accepted it and when. */
export function receiptContent(payment: PaymentJson, registrationNumber: string, institution: string): DocumentContent {
  return {
    kind: 'receipt',
    title: 'Payment receipt',
    institution,
    issuedOn: todayUtc(),
    facts: [
      ['Student', payment.studentId],
      ['Registration number', registrationNumber],
      ['Payment', payment.id],
      ['Accepted on', (payment.processedAt ?? '').slice(0, 10)],
    ],
    table: { columns: ['Date', 'Description', 'Amount'], rows: [[payment.date, payment.description ?? 'Payment', decimalOf(payment.amount)]] },
    totals: [['Amount received', decimalOf(payment.amount)]],
  };
}

/** The PDF, streamed as pdfkit writes it; its number and content hash also travel as headers. */
export function sendPdf(res: Response, content: DocumentContent): void {
  const issued = issue(content);
  res
    .status(200)
    .type('application/pdf')
    .setHeader('Content-Disposition', `attachment; filename="${issued.number}.pdf"`)
    .setHeader('X-Document-Number', issued.number)
    .setHeader('X-Document-SHA256', issued.sha256);
  renderPdf(content, issued).pipe(res);
}

export const STATEMENT_CSV_HEADER = ['date', 'description', 'debit', 'credit', 'balance', 'lineId', 'reversalOf'];

/** The statement as CSV: the same lines and figures as the JSON (decimals, like the PDF); the last balance is the statement's. */
export function sendStatementCsv(res: Response, statement: Omit<StatementData, 'registrationNumber'>): void {
  const body = [
    CSV_BOM,
    csvRecord(STATEMENT_CSV_HEADER),
    ...statement.lines.map((line) =>
      csvRecord([
        line.date,
        line.description,
        { figure: decimalOf(line.debit) },
        { figure: decimalOf(line.credit) },
        { figure: decimalOf(line.balance) },
        line.id,
        line.reversalOf,
      ]),
    ),
  ].join('');
  res
    .status(200)
    .type(CSV_TYPE)
    .setHeader('Content-Disposition', `attachment; filename="statement-${statement.studentId}.csv"`)
    .send(body);
}
