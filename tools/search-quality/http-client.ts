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
