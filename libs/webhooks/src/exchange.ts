/**
 * One POST to a destination already checked: connected only to its checked addresses, redirects not followed,
 * at most `maxResponseBytes` of the answer read, stopped when `signal` aborts. Never throws or rejects: a network
 * condition is a failure class.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { boundedText } from '@libs/safe-text';
import type { ResolvedAddress } from './destination';

/** Node's own default, stated: an answer whose headers alone exceed it is `too-large`. */
const MAX_HEADER_BYTES = 16 * 1024;
/** Room for an error code or a short message in the deliveries log. */
const DETAIL_MAX_LENGTH = 200;
/** OpenSSL's and Node's TLS error codes: certificate checks, handshakes, a plain-http server on a TLS port. */
const TLS_ERROR_CODE = /^ERR_(?:TLS|SSL)_|CERT|SELF_SIGNED|^UNABLE_TO_|^EPROTO$/;

export type ExchangeFailure = 'timeout' | 'connection' | 'tls' | 'too-large' | 'protocol';

export interface ExchangeRequest {
  url: URL;
  /** Every address the host was resolved to, all of them checked. */
  addresses: readonly ResolvedAddress[];
  headers: Readonly<Record<string, string>>;
  body: Buffer;
  /** Aborts the exchange wherever it is: the deadline of the whole attempt. */
  signal: AbortSignal;
  maxResponseBytes: number;
  excerptBytes: number;
  /** Certificates to trust besides the system's: receivers on an intranet with their own authority, and tests. */
  ca?: string | Buffer;
}

export type Answer =
  | {
      kind: 'answer';
      status: number;
      /** Where the connection went: one of the checked addresses. */
      address: string;
      /** The start of the answer's body, for the log. */
      excerpt: Buffer;
      /** False when reading stopped early: the size limit, the deadline, or the receiver closing mid-body. */
      complete: boolean;
    }
  | { kind: 'failure'; failure: ExchangeFailure; detail: string };

/**
 * Resolution is already done: the connection gets the checked addresses, and only those, whatever the DNS says now.
 * The URL's host name still names the request (Host header, TLS server name), so certificates are verified against it.
 */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [...addresses]);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

function failureOf(error: NodeJS.ErrnoException, signal: AbortSignal): Answer {
  const code = error.code ?? '';
  const detail = boundedText(code || error.message, DETAIL_MAX_LENGTH);
  if (signal.aborted) return { kind: 'failure', failure: 'timeout', detail: 'deadline' };
  if (code === 'HPE_HEADER_OVERFLOW') return { kind: 'failure', failure: 'too-large', detail };
  if (code.startsWith('HPE_')) return { kind: 'failure', failure: 'protocol', detail };
  if (TLS_ERROR_CODE.test(code)) return { kind: 'failure', failure: 'tls', detail };
  return { kind: 'failure', failure: 'connection', detail };
}

export function exchange(request: ExchangeRequest): Promise<Answer> {
  return new Promise((settle) => {
    const transport = request.url.protocol === 'https:' ? https : http;
    const req = transport.request(request.url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(request.body.length) },
      // A fresh connection per attempt: a pooled socket could have been opened to an address checked for another.
      agent: false,
      lookup: pinnedLookup(request.addresses),
      signal: request.signal,
      maxHeaderSize: MAX_HEADER_BYTES,
      ca: request.ca === undefined ? undefined : [...rootCertificates, request.ca],
    });
    let answered = false;
    // Once the status is in, the answer stands: an abort or a reset mid-body only cuts the excerpt ('close' below).
    req.on('error', (error) => answered || settle(failureOf(error, request.signal)));
    req.on('response', (res) => {
      answered = true;
      const address = res.socket.remoteAddress ?? '';
      const excerpt: Buffer[] = [];
      let kept = 0;
      let bytesRead = 0;
      let done = false;
      const finish = (complete: boolean) => {
        if (done) return;
        done = true;
        settle({ kind: 'answer', status: res.statusCode ?? 0, address, excerpt: Buffer.concat(excerpt), complete });
        // No keep-alive to return the socket to; closing also tells a receiver still streaming to stop.
        req.destroy();
      };
      res.on('data', (chunk: Buffer) => {
        const taken = chunk.subarray(0, request.maxResponseBytes - bytesRead);
        bytesRead += taken.length;
        if (kept < request.excerptBytes) {
          const part = taken.subarray(0, request.excerptBytes - kept);
          excerpt.push(part);
          kept += part.length;
        }
        if (taken.length < chunk.length) finish(false);
      });
      res.on('end', () => finish(true));
      res.on('close', () => finish(false));
      // Without a listener, an abort mid-body would throw.
      res.on('error', () => undefined);
    });
    req.end(request.body);
  });
}
