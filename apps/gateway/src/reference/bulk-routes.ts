import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { HttpProblem } from '@libs/http-problems';
import { streamPages } from '../platform/http/streamed-pages';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { BULK_SOURCES } from './bulk-datasets';
import { downloadDataset } from './bulk-operations';

/**
 * Revalidating costs one small read and downloading the whole set: a client should always ask, and download only
 * after a change.
 */
const CACHE_CONTROL = 'private, no-cache';

/** Room for the 'close' listeners of a gzipped answer: 12 counted on a download (below), and a margin. */
const PIPED_ANSWER_LISTENERS = 20;

/** The whole of a dataset, read page by page and gzipped as it goes (docs/decisions/0026). */
export function bulkRoutes(upstreams: Upstreams): Route[] {
  return [
    route(downloadDataset, async ({ path: { dataset }, query }, { req, res, upstream }) => {
      const source = BULK_SOURCES[dataset];
      const format = query._format ?? 'json';
      const line = format === 'fhir' ? source.fhir : source.json;
      if (!line) throw HttpProblem.invalidParameter('_format', `${dataset} have no FHIR resource of their own: download them as json`);
      // Kept out of the answer cache: the version must be the current one, and a whole dataset's pages would evict
      // every search answer.
      const call = { ...upstream, cache: 'skip' } as const;
      const versionOf = async () => (await upstreams.reference.call((client) => client.getDatasetVersion, { dataset }, call)).version;
      const version = await versionOf();
      const gzip = req.acceptsEncodings('gzip') === 'gzip';

      res.setHeader('ETag', `W/"${version}-${format}-${gzip ? 'gzip' : 'identity'}"`);
      res.setHeader('Cache-Control', CACHE_CONTROL);
      res.vary('Accept-Encoding');
      res.vary('Authorization');
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      res
        .status(200)
        .type(format === 'fhir' ? 'application/fhir+ndjson' : 'application/x-ndjson')
        .setHeader('Content-Disposition', `attachment; filename="${dataset}${format === 'fhir' ? '.fhir' : ''}.ndjson"`);
      if (gzip) res.setHeader('Content-Encoding', 'gzip');
      const compressor = gzip ? createGzip() : undefined;
      // pipeline() puts 7 'close' listeners of its own on the answer, beside the middleware's 5, and takes them off
      // when it ends. Node takes more than 10 on one emitter for a leak and would print a warning on every download.
      if (compressor) res.setMaxListeners(PIPED_ANSWER_LISTENERS);
      // A client that leaves ends the pipeline in an error that no one is left to hear; the read stops at its next page.
      const piped = compressor ? pipeline(compressor, res).catch(() => undefined) : undefined;
      const sink = compressor ?? res;
      await streamPages(res, sink, async (cursor) => {
        const page = await source.read(upstreams, cursor, call);
        // Pages are read over time, not in one snapshot: a write meanwhile would make a mix that no ETag names.
        if (!page.nextCursor && (await versionOf()) !== version) throw new Error(`${dataset} changed during the download`);
        return { text: page.records.map((record) => `${JSON.stringify(line(record))}\n`).join(''), nextCursor: page.nextCursor };
      });
      await piped;
    }),
  ];
}
