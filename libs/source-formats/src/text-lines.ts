import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';

/** A parsed source row, or the reason it was rejected, with its 1-based line number. */
export type ParsedRow<T> = { line: number; record: T } | { line: number; error: string };

export interface ReadOptions {
  /** Called with the size of each chunk read from disk (compressed bytes for .gz), for progress bars. */
  onBytesRead?: (bytes: number) => void;
}

/** The decoded text of a file, gunzipped when the name ends in .gz; streamed, so memory stays flat. */
export function openTextStream(path: string, options: ReadOptions = {}): Readable {
  const file = createReadStream(path);
  if (options.onBytesRead) {
    const report = options.onBytesRead;
    file.on('data', (chunk) => report(chunk.length));
  }
  if (!path.endsWith('.gz')) return file;
  const gunzip = createGunzip();
  // pipe() does not forward errors: a missing file must fail the reader, not hang it.
  file.on('error', (error) => gunzip.destroy(error));
  return file.pipe(gunzip);
}

/** Lines of a text file (see openTextStream). */
export function openTextLines(path: string, options: ReadOptions = {}): AsyncIterable<string> {
  return createInterface({ input: openTextStream(path, options), crlfDelay: Infinity });
}
