import { z } from 'zod';
import { FINANCE_LIMITS, financeApi } from '@libs/contracts';
import { queryChoice, queryInteger, queryOf } from '../platform/routing/query-fields';

/** What the transaction and payment declarations share. */

export const tag = 'Finance';

/** The ledger's date filter: the transactions list and its CSV export take the same range. */
export const dateRange = {
  from: queryOf(financeApi.isoDate).optional().meta({ description: 'Inclusive first date, YYYY-MM-DD.' }),
  to: queryOf(financeApi.isoDate).optional().meta({ description: 'Inclusive last date, YYYY-MM-DD.' }),
};

export const limit = queryInteger(FINANCE_LIMITS.page).meta({ description: 'Page size.' });

/**
 * How a finance answer that also comes as a document is asked for: a `format` query parameter, the same on every
 * such operation (docs/decisions/0017), so a plain link downloads it; the first format is the default.
 */
export const documentFormat = <const T extends readonly [string, ...string[]]>(formats: T) =>
  queryChoice(formats)
    .optional()
    .meta({ description: `\`${formats.join('`, `')}\`; \`${formats[0]}\` when absent.` });

/** The answers of a document: its media type, and the headers that name it. */
export const documentHeaders = {
  'Content-Disposition': { description: '`attachment`, with a file name.', schema: z.string() },
};
export const pdfHeaders = {
  ...documentHeaders,
  'X-Document-Number': { description: 'The number printed on the document.', schema: z.string() },
  'X-Document-SHA256': { description: 'The SHA-256 of its content, printed on it (docs/FINANCE.md, "Documents").', schema: z.string() },
};
