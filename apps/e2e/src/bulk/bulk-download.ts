import { get, type IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

export interface Download {
  status: number;
  headers: IncomingMessage['headers'];
  /** Each line of the body, parsed; the raw body for an answer that is no NDJSON (a problem). */
  lines: unknown[];
  text: string;
}

/**
 * Opens a download as a client does, without reading it: the caller reads, pauses or leaves. Each on a connection of
 * its own, as curl makes it: Node's global agent keeps sockets alive, and one the gateway closed while a test held
 * the event loop (the FHIR schema checks take seconds) would be taken before its close is read.
 */
export const openDownload = (url: string, headers: Record<string, string>) =>
  new Promise<IncomingMessage>((resolve, reject) => get(url, { headers, agent: false }, resolve).on('error', reject));

/** A whole download, gunzipped when gzip-encoded and parsed line by line as it arrives (never as one string). */
export async function download(url: string, headers: Record<string, string>): Promise<Download> {
  const res = await openDownload(url, headers);
  const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
  if (!/ndjson/.test(res.headers['content-type'] ?? '')) {
    let text = '';
    for await (const chunk of body) text += chunk;
    return { status: res.statusCode ?? 0, headers: res.headers, lines: [], text };
  }
  const lines: unknown[] = [];
  for await (const line of createInterface({ input: body, crlfDelay: Infinity })) lines.push(JSON.parse(line));
  return { status: res.statusCode ?? 0, headers: res.headers, lines, text: '' };
}

/** A download as fetch makes it, the gzip undone by fetch: each line of the body, parsed. */
export async function fetchLines(url: string, headers: Record<string, string>): Promise<{ response: Response; lines: unknown[] }> {
  const response = await fetch(url, { headers });
  const lines = (await response.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown);
  return { response, lines };
}
