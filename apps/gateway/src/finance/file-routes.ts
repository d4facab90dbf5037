import type { Response } from 'express';
import { FILE_LIMITS, toPaymentJson, toUploadedFileJson } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { byteRangeOf } from '../platform/http/byte-range';
import { drained } from '../platform/http/drained';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { returned } from './finance-response';
import * as op from './file-operations';
import { sendUpload } from './file-upload';
import { UploadSlots } from './upload-slots';

/**
 * `attachment` with the file's name, always quoted as the documents' are (the name was sanitised of quotes and
 * backslashes when stored); outside ASCII, an ASCII stand-in and the name itself as `filename*` (RFC 6266).
 */
function attachmentOf(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  if (ascii === name) return `attachment; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Writes the chunks with back-pressure; a failure after the first byte cuts the connection (a part never looks whole). */
async function sendChunks(res: Response, chunks: AsyncIterator<{ chunk: Buffer }>, first: IteratorResult<{ chunk: Buffer }>) {
  try {
    for (let next = first; !next.done && !res.destroyed; next = await chunks.next()) {
      if (!res.write(next.value.chunk)) await drained(res);
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    await chunks.return?.();
  }
}

/**
 * Uploads, streamed to the finance service, and a payment's files, streamed back. An upload waits for a place at
 * most half the request timeout, leaving it the other half to arrive (10 MB in 15 s by default: 0.7 MB/s).
 */
export function fileRoutes(upstreams: Upstreams, settings: { requestTimeoutMs: number }): Route[] {
  const finance = upstreams.finance;
  const slots = new UploadSlots(FILE_LIMITS.concurrentUploads, settings.requestTimeoutMs / 2);
  return [
    route(op.uploadFile, async (_input, { req, res, upstream }) => {
      // A refusal before the body's end closes the connection after its answer (sendProblem, libs/http-problems).
      const answer = await slots.run(() => finance.sendStream((client) => client.uploadFile, (write, ended) => sendUpload(req, write, ended), upstream));
      res.status(201).json(toUploadedFileJson(returned(answer.file)));
    }),

    route(op.getPaymentFile, async ({ path, headers }, { req, res, upstream }) => {
      const answer = await finance.call((client) => client.getPayment, { id: path.id }, upstream);
      const file = toPaymentJson(returned(answer.payment)).files.find((candidate) => candidate.id === path.fileId.toLowerCase());
      if (!file) throw new HttpProblem(404, 'the payment has no such file');
      const etag = `"${file.sha256}"`;
      res.set({ ETag: etag, 'Cache-Control': 'private, no-cache' });
      // A copy the client holds already is not sent again (If-None-Match is weighed before Range: RFC 9110 §13.2.2).
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      const range = byteRangeOf({ range: headers.Range, ifRange: headers['If-Range'] }, file.size, etag);
      if (range === 'unsatisfiable') {
        throw new HttpProblem(416, `the range lies outside the file's ${file.size} bytes`, { headers: { 'Content-Range': `bytes */${file.size}` } });
      }
      const request = { paymentId: path.id, fileId: file.id, offset: String(range.offset), length: String(range.length) };
      const chunks = finance.receiveStream((client) => client.downloadFile, request, upstream)[Symbol.asyncIterator]();
      // A refusal before the first byte is still a problem with its status.
      const first = await chunks.next();
      res.status(range.partial ? 206 : 200);
      res.set({
        'Content-Type': file.type,
        'Content-Disposition': attachmentOf(file.name),
        'Accept-Ranges': 'bytes',
        'Content-Length': String(range.length),
        'Content-Security-Policy': 'sandbox',
        'X-Content-Type-Options': 'nosniff',
        ...(range.partial ? { 'Content-Range': `bytes ${range.offset}-${range.offset + range.length - 1}/${file.size}` } : {}),
      });
      await sendChunks(res, chunks, first);
    }),
  ];
}
