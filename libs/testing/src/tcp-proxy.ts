import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port pointed at the proxy instead. */
  proxiedUrl(url: string): string;
  /** Drops every open connection and refuses new ones until restore(): the far side looks dead. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

const DEFAULT_PORTS: Record<string, number> = { 'amqp:': 5672, 'amqps:': 5671, 'postgres:': 5432, 'postgresql:': 5432 };

/**
 * A TCP relay between a service and a shared server (RabbitMQ, PostgreSQL), so a
 * test can cut one service's connections without stopping the server that other
 * test runs use.
 */
export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port) || DEFAULT_PORTS[target.protocol];
  if (!targetPort) throw new Error(`no port in ${targetUrl}`);
  const open = new Set<Socket>();
  let isCut = false;

  const server = createServer((client) => {
    if (isCut) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // An error on one side ends both; the service under test sees a dropped connection.
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the proxy has no port');
  const port = address.port;

  const dropAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };

  return {
    port,
    proxiedUrl(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    cut() {
      isCut = true;
      dropAll();
    },
    restore() {
      isCut = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        server.close(() => resolve());
      }),
  };
}
