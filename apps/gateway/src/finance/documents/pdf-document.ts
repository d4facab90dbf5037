import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';

/** What a finance document says, before it is laid out: its content hash and number are taken from this. */
export interface DocumentContent {
  kind: 'statement' | 'receipt';
  title: string;
  institution: string;
  /** YYYY-MM-DD (UTC) */
  issuedOn: string;
  /** Label and value pairs under the title: the student, the payment. */
  facts: [string, string][];
  table: { columns: string[]; rows: string[][] };
  /** Label and value pairs under the table: the balance. */
  totals: [string, string][];
}

export interface IssuedDocument {
  number: string;
  /** SHA-256 (hex) of the content as JSON, in the order of DocumentContent's fields; the number comes from it. */
  sha256: string;
}

const NUMBER_PREFIX = { statement: 'ST', receipt: 'RC' } as const;

/** The document's hash and number: the same content on the same day is the same document, with the same number. */
export function issue(content: DocumentContent): IssuedDocument {
  const sha256 = createHash('sha256').update(JSON.stringify(content)).digest('hex');
  return { sha256, number: `${NUMBER_PREFIX[content.kind]}-${content.issuedOn.replaceAll('-', '')}-${sha256.slice(0, 10).toUpperCase()}` };
}

/**
 * The standard PDF fonts encode only WinAnsi (Latin-1, roughly): other characters (and control characters, which
 * the API refuses anyway) are shown as "?", so hostile text can neither break the layout nor the encoder.
 */
const printable = (text: string) => text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');

const MARGIN = 50;
const ROW_HEIGHT = 14;

/**
 * The document as a PDF stream (pdfkit), written page by page as it is read: nothing but the content is held.
 * Columns after the first two are right-aligned figures.
 */
export function renderPdf(content: DocumentContent, issued: IssuedDocument): PDFKit.PDFDocument {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: `${content.title} ${issued.number}`, Author: printable(content.institution) } });
  const width = doc.page.width - 2 * MARGIN;
  doc.font('Helvetica-Bold').fontSize(14).text(printable(content.institution));
  doc.fontSize(12).text(content.title);
  doc.font('Helvetica').fontSize(9).moveDown(0.5);
  const facts: [string, string][] = [['Document number', issued.number], ['Issued on', content.issuedOn], ...content.facts];
  for (const [label, value] of facts) doc.text(`${label}: ${printable(value)}`);
  doc.moveDown();

  const { columns, rows } = content.table;
  // Date, a wide text column, then the figures.
  const figureWidth = 70;
  const widths = [60, width - 60 - figureWidth * (columns.length - 2), ...columns.slice(2).map(() => figureWidth)];
  const drawRow = (cells: string[], bold = false) => {
    if (doc.y + ROW_HEIGHT > doc.page.height - MARGIN) doc.addPage();
    const y = doc.y;
    let x = MARGIN;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    cells.forEach((cell, i) => {
      doc.text(printable(cell), x, y, { width: widths[i] - 4, height: ROW_HEIGHT, lineBreak: false, ellipsis: true, align: i >= 2 ? 'right' : 'left' });
      x += widths[i];
    });
    doc.x = MARGIN;
    doc.y = y + ROW_HEIGHT;
  };
  drawRow(columns, true);
  for (const row of rows) drawRow(row);
  doc.moveDown();
  for (const [label, value] of content.totals) drawRow(['', label, ...Array(columns.length - 3).fill(''), value], true);
  doc.moveDown();
  doc.font('Helvetica').fontSize(7).text(`Content SHA-256: ${issued.sha256}`, MARGIN, doc.y, { width });
  doc.end();
  return doc;
}
