import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';

/** A parsed source row, or the reason it was rejected, with its 1-based line number. */
export type ParsedRow<T> = { line: number; record: T } | { line: number; error: string };

/** Lines of a text file, gunzipped when the name ends in .gz; streamed, so memory stays flat. */
export function openTextLines(path: string): AsyncIterable<string> {
  let stream: Readable = createReadStream(path);
  if (path.endsWith('.gz')) stream = stream.pipe(createGunzip());
  return createInterface({ input: stream, crlfDelay: Infinity });
}
