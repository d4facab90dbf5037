import { createServer, type Server } from 'node:http';
import type { Logger } from '@libs/logging';
import { metricsRegistry } from './registry';

export interface MetricsServer {
  /** The bound port (useful when 0 asked the OS for one); undefined when metrics are off. */
  readonly port?: number;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics in the Prometheus text format on a port of its own, so a
 * gRPC service can be scraped over plain HTTP. Port 0 turns it off; a port
 * already taken stops the start-up with a clear error.
 */
export async function startMetricsServer(options: {
  host: string;
  port: number;
  logger: Logger;
}): Promise<MetricsServer> {
  if (options.port === 0) {
    options.logger.info('metrics endpoint is off (METRICS_PORT=0)');
    return { close: async () => undefined };
  }
  const registry = metricsRegistry();
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics lives here\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        options.logger.warn({ err: error }, 'could not collect metrics');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics collection failed\n');
      },
    );
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: Error) => reject(new Error(`cannot serve metrics on port ${options.port}: ${error.message}`)));
    server.listen(options.port, options.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.logger.info({ port }, 'metrics endpoint listening on /metrics');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
