import { crc32, deflateSync } from 'node:zlib';

/** Files made in the test, byte by byte, so that each case says exactly what it holds. */

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A PNG that declares `width` × `height` pixels (8-bit greyscale), with one deflated row of zeros as its data: a
 * real image when small; with huge dimensions, a decompression bomb's header on a few bytes.
 */
export function png(width: number, height: number, rows = Math.min(height, 4)): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const scanlines = Buffer.alloc(Math.min(rows * (Math.min(width, 64) + 1), 1_000_000));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanlines)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's frame: SOI, a JFIF APP0 segment, bytes standing for the scan, EOI. Enough for a check by content. */
export function jpeg(scanBytes = 2_000): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, Buffer.alloc(scanBytes, 0x55), Buffer.from([0xff, 0xd9])]);
}

/** A one-page PDF, padded with a comment to about `bytes` bytes when asked (a scan's size without its pixels). */
export function pdf(bytes = 0): Buffer {
  const body = [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
    'trailer << /Root 1 0 R >>',
  ].join('\n');
  // The body, `\n%`, the padding and `\n%%EOF\n`: exactly `bytes` when that is larger.
  const padding = Math.max(0, bytes - body.length - 9);
  return Buffer.from(`${body}\n%${'x'.repeat(padding)}\n%%EOF\n`, 'latin1');
}

/** A multipart/form-data body of `purpose` and one `file`, as browsers send it (FormData builds it). */
export function uploadForm(file: Buffer, name: string, options: { purpose?: string | null; type?: string } = {}): FormData {
  const form = new FormData();
  if (options.purpose !== null) form.append('purpose', options.purpose ?? 'payment_proof');
  form.append('file', new Blob([file], { type: options.type ?? 'application/octet-stream' }), name);
  return form;
}
