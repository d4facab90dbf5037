import busboy from 'busboy';
import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { FILE_LIMITS, type financeV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';

type Write = (message: financeV1.UploadFileRequest) => Promise<void>;

const tooLarge = () => new HttpProblem(413, `the file is larger than ${FILE_LIMITS.maxBytes} bytes`);

/** A body that declares more than a file and its envelope can take is refused before a byte is read. */
const ENVELOPE_BYTES = 64 * 1024;

/** The file's bytes in messages of at most FILE_LIMITS.chunkBytes, each written once the service took the last. */
async function sendFile(file: Readable, first: financeV1.UploadFileRequest, write: Write): Promise<void> {
  await write(first);
  for await (const piece of file as AsyncIterable<Buffer>) {
    for (let at = 0; at < piece.length; at += FILE_LIMITS.chunkBytes) {
      await write({ purpose: '', name: '', chunk: piece.subarray(at, at + FILE_LIMITS.chunkBytes), last: false });
    }
  }
  // busboy stops a file at its size limit and says so: the service must not take a truncated file for a whole one.
  if ((file as Readable & { truncated?: boolean }).truncated) throw tooLarge();
  // The file is whole: said in so many words, since a cut stream can look ended to the service.
  await write({ purpose: '', name: '', chunk: Buffer.alloc(0), last: true });
}

/**
 * Reads a multipart upload, `purpose` then one `file`, and writes the file on as its bytes arrive (never whole in
 * memory). Stops reading at the first byte past FILE_LIMITS.maxBytes (413), at anything else in the body (400),
 * and when the client goes; the caller then cancels the call, and the service keeps nothing. Stops reading too when
 * the call ends (`callEnded`), so that the rest of a body the service refused goes nowhere.
 */
export async function sendUpload(req: Request, write: Write, callEnded: AbortSignal): Promise<void> {
  if (!req.is('multipart/form-data')) throw new HttpProblem(415, 'send the file as multipart/form-data');
  if (Number(req.get('content-length')) > FILE_LIMITS.maxBytes + ENVELOPE_BYTES) throw tooLarge();
  const clientGone = () => new HttpProblem(400, 'the client went before the file was whole');
  // An upload that waited for its place may find its client gone (or timed out) meanwhile.
  if (req.destroyed) throw clientGone();
  return new Promise<void>((resolve, reject) => {
    let purpose: string | undefined;
    let sending: Promise<void> | undefined;
    let parts: busboy.Busboy;
    try {
      // busboy stops a file on reaching fileSize: one byte past the limit is the first refused.
      // Browsers and fetch send a file name as raw UTF-8 (busboy's default reads it as Latin-1).
      parts = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fields: 1, files: 1, fieldSize: 64, fileSize: FILE_LIMITS.maxBytes + 1, headerPairs: 10 } });
    } catch {
      throw HttpProblem.invalidParameter('Content-Type', 'must name a multipart boundary');
    }
    let failed = false;
    const fail = (error: unknown) => {
      // Once: a later call (the call's end after this failure cancelled it) must not pause a body being dropped.
      if (failed) return;
      failed = true;
      // Nothing more is read: the rest of a too large or malformed body is never looked at.
      req.unpipe(parts);
      req.pause();
      reject(error);
    };
    // The service answered before the file was whole (it refused it): the call's answer is the client's, not this.
    const onCallEnded = () => fail(new Error('the upload call ended before the file did'));
    callEnded.addEventListener('abort', onCallEnded, { once: true });
    parts.on('field', (name, value) => {
      if (name === 'purpose') purpose = value;
      else fail(HttpProblem.invalidParameter(name, 'is not a part of this request'));
    });
    parts.on('file', (name, file, info) => {
      if (name !== 'file') return fail(HttpProblem.invalidParameter(name, 'is not a part of this request'));
      if (purpose === undefined) return fail(HttpProblem.invalidParameter('purpose', 'is required, before file'));
      file.on('limit', () => fail(tooLarge()));
      sending = sendFile(file, { purpose, name: info.filename ?? '', chunk: Buffer.alloc(0), last: false }, write);
      sending.then(() => callEnded.removeEventListener('abort', onCallEnded), fail);
    });
    // Emitted for a part past the limit (a second field or file), which busboy would skip.
    for (const limit of ['filesLimit', 'fieldsLimit'] as const) {
      parts.on(limit, () => fail(HttpProblem.invalidParameter('body', 'must hold the field purpose and one file, nothing else')));
    }
    parts.on('error', () => fail(HttpProblem.invalidParameter('body', 'is not well-formed multipart/form-data')));
    parts.on('close', () => {
      if (!sending) return fail(HttpProblem.invalidParameter('file', 'is required'));
      sending.then(resolve, fail);
    });
    req.on('error', fail);
    req.on('close', () => {
      if (!req.complete) fail(clientGone());
    });
    req.pipe(parts);
  });
}
