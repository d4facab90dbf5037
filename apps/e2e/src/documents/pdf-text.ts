import { execFile } from 'node:child_process';
import { join } from 'node:path';

export interface PdfText {
  pages: number;
  /** Each baseline's text items, left to right, top to bottom, page after page. */
  rows: { page: number; texts: string[] }[];
}

/** The text of a PDF as pdfjs-dist reads it (in a child process: it is an ES module only). */
export function pdfText(pdf: Buffer): Promise<PdfText> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [join(__dirname, 'pdf-text.mjs')], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`pdf-text: ${error.message} ${stderr}`)) : resolve(JSON.parse(stdout) as PdfText),
    );
    child.stdin?.end(pdf);
  });
}
