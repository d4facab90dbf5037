/** Real webhook receivers on real sockets, for the delivery tests: each records what reached it and answers its own way. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  /** The raw body, as a receiver must verify it. */
  body: Buffer;
}

export type Respond = (delivery: ReceivedDelivery, res: http.ServerResponse) => void;

export interface Receiver {
  port: number;
  deliveries: ReceivedDelivery[];
  close(): Promise<void>;
}

export interface ReceiverOptions {
  host?: string;
  port?: number;
  tls?: { key: string; cert: string };
}

export async function startReceiver(respond: Respond, options: ReceiverOptions = {}): Promise<Receiver> {
  const deliveries: ReceivedDelivery[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = { headers: req.headers, body: Buffer.concat(chunks) };
      deliveries.push(delivery);
      respond(delivery, res);
    });
  };
  const server = options.tls ? https.createServer(options.tls, handle) : http.createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    deliveries,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A receiver left hanging on purpose still holds its connection.
        server.closeAllConnections();
      }),
  };
}

/** A self-signed certificate for one DNS name (openssl, as on every machine the tests run on). */
export function selfSignedCertificate(name: string): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-cert-'));
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert,
        '-days', '2', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
