/** Real webhook receivers on real sockets, for the delivery tests: each records what reached it and answers its own way. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  /** The request's path: which of several endpoints on one receiver it was sent to. */
  path: string;
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
      const delivery = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
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

export interface VerifiedDelivery {
  id: string;
  type: string;
  /** When the change happened (ISO 8601): with receivedAt, the delivery's lag. */
  occurredAt: string;
  data: { object: { type: string; id?: string; ids?: string[]; version?: number; url?: string } };
  headers: http.IncomingHttpHeaders;
  receivedAt: number;
}

/**
 * A receiver that checks each delivery with the published `standardwebhooks` verifier against `secrets()` (any of
 * them may match) and keeps the verified ones; `answer` decides the status (204 unless told). `options.port` brings
 * a receiver that was closed back on its old port, as a receiver that was down comes back.
 */
export async function verifyingReceiver(
  secrets: () => string[],
  answer: (delivery: ReceivedDelivery, res: http.ServerResponse) => void = (_delivery, res) => void res.writeHead(204).end(),
  options: ReceiverOptions = {},
): Promise<Receiver & { verified: VerifiedDelivery[]; forged: ReceivedDelivery[]; url: string }> {
  const verified: VerifiedDelivery[] = [];
  const forged: ReceivedDelivery[] = [];
  const receiver = await startReceiver((delivery, res) => {
    const headers = delivery.headers as Record<string, string>;
    const payload = secrets()
      .map((secret) => {
        try {
          return new Webhook(secret).verify(delivery.body, headers) as Omit<VerifiedDelivery, 'headers' | 'receivedAt'>;
        } catch {
          return undefined;
        }
      })
      .find((ok) => ok !== undefined);
    if (payload) verified.push({ ...payload, headers: delivery.headers, receivedAt: Date.now() });
    else forged.push(delivery);
    answer(delivery, res);
  }, options);
  return Object.assign(receiver, { verified, forged, url: `http://127.0.0.1:${receiver.port}/hooks` });
}
