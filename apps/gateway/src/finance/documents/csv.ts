/**
 * CSV as RFC 4180 writes it (every text cell quoted, quotes doubled, CRLF between records), UTF-8 with a byte order
 * mark so that spreadsheets read it as UTF-8 (docs/decisions/0017).
 */

export const CSV_BOM = '\uFEFF';
export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

/** A cell: text from the records (guarded, quoted) or a figure the gateway formatted itself (written as it is). */
export type CsvCell = string | { figure: string } | null;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or CR before them) as a formula: such text gets a
 * leading apostrophe, as OWASP's "CSV Injection" page says, so it shows as the text it was. Figures are exempt:
 * the gateway writes them from integers, so a minus sign there is a negative number, never a formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

const quoted = (text: string) => `"${(FORMULA_START.test(text) ? `'${text}` : text).replaceAll('"', '""')}"`;

export const csvRecord = (cells: CsvCell[]): string =>
  `${cells.map((cell) => (cell === null ? '' : typeof cell === 'string' ? quoted(cell) : cell.figure)).join(',')}\r\n`;
