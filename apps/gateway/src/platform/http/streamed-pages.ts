import type { Writable } from 'node:stream';
import type { Response } from 'express';
import { drained } from './drained';

/** One page of a keyset read, already written out; an empty `nextCursor` ends the read. */
export interface WrittenPage {
  text: string;
  nextCursor: string;
}

/**
 * Writes the pages of a keyset read into `sink` (the answer, or a gzip stream piped into it), each asked for only
 * once the sink has taken the last (back-pressure): the gateway holds one page at a time, however long the set.
 * The status is sent by then, so should a page fail the connection is cut rather than the body ended: a partial
 * file is never taken for a whole one. A client that leaves stops the read at the next page.
 */
export async function streamPages(res: Response, sink: Writable, readPage: (cursor: string) => Promise<WrittenPage>): Promise<void> {
  let cursor = '';
  try {
    do {
      const page = await readPage(cursor);
      if (!sink.write(page.text)) await drained(sink);
      cursor = page.nextCursor;
    } while (cursor && !sink.destroyed && !res.destroyed);
    sink.end();
  } catch {
    res.destroy();
  }
}
