import { Agent, get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';

/**
 * GET and parse a JSON answer with Node's own HTTP client over a kept-alive
 * connection, accepting gzip as browsers and most clients do. Undici's fetch
 * adds client-side work to each request that is not the system's latency.
 */
export class JsonClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  get(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: unknown }> {
    return new Promise((resolve, reject) => {
      get(url, { agent: this.agent, headers: { ...headers, 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            const raw = Buffer.concat(chunks);
            const text = (response.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) });
          } catch (error) {
            reject(error);
          }
        });
      }).on('error', reject);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A search stopped at the statement timeout is refused with 429 when the database is busy; it is sent again this often. */
const MAX_ATTEMPTS = 4;

/**
 * GET, sending a 429 (the search was stopped because the machine was busy) again after its Retry-After, at most
 * MAX_ATTEMPTS times: a busy machine, not a miss. The latency is that of the answer that counted.
 */
export async function getRetrying(
  client: JsonClient,
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown; elapsedMs: number; retried: number }> {
  for (let attempt = 1; ; attempt++) {
    const started = performance.now();
    const response = await client.get(url, headers);
    const elapsedMs = performance.now() - started;
    if (response.status !== 429 || attempt >= MAX_ATTEMPTS) return { status: response.status, body: response.body, elapsedMs, retried: attempt - 1 };
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers['retry-after'] ?? 1)));
  }
}
