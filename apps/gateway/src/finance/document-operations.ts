import { z } from 'zod';
import { operation } from '../platform/routing/operation';
import { byId } from '../platform/routing/path-ids';
import { problem } from '../platform/routing/responses';
import { dateRange, documentFormat, documentHeaders, pdfHeaders, tag } from './finance-operation-parts';

/** Finance documents besides the statement's (record-operations.ts): a receipt, the ledger as CSV (docs/FINANCE.md, "Documents"). */

export const getPaymentReceipt = operation({
  method: 'get',
  path: '/api/v1/transactions/payments/{id}/receipt',
  operationId: 'getPaymentReceipt',
  summary: 'The receipt of an accepted payment, as a PDF',
  description:
    'Names the institution, the student and their registration number, the payment and its amount, with a document number and the SHA-256 ' +
    'of its content. The student reads their own; finance staff any.',
  tag,
  access: { key: 'finance:read' },
  request: { path: byId('Payment'), query: z.object({ format: documentFormat(['pdf']) }) },
  responses: {
    '200': { description: 'The receipt.', content: { 'application/pdf': z.string() }, headers: pdfHeaders },
    '404': problem('No such payment (or not yours).'),
    '409': problem('The payment is not accepted (pending, rejected or reversed): it has no receipt.'),
  },
});

export const exportTransactions = operation({
  method: 'get',
  path: '/api/v1/transactions/export',
  operationId: 'exportTransactions',
  summary: 'Every transaction of a date range as CSV, streamed',
  description:
    'RFC 4180, UTF-8 with a byte order mark, one record per transaction in (date, id) order, amounts as decimals; text cells that a ' +
    'spreadsheet would run as a formula are neutralised. A student gets their own. The answer is streamed as it is read, page by page: ' +
    'should the service fail midway, the connection is cut rather than the file ended, so a partial file is never taken for a whole one.',
  tag,
  access: { key: 'finance:read' },
  request: {
    query: z.object({
      ...dateRange,
      format: documentFormat(['csv']),
    }),
  },
  responses: { '200': { description: 'The transactions.', content: { 'text/csv': z.string() }, headers: documentHeaders } },
});
