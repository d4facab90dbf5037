import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Sequelize } from 'sequelize';
import { createSequelize } from '@libs/db';
import { createLogger } from '@libs/logging';
import { keyVerifierOptions, startKeyVerifier, type KeyVerifier } from '../identity/key-verifier';
import { readConfig, type GatewayConfig } from '../config';
import { buildApp } from '../app';
import { allUpstreams, connectUpstreams } from '../platform/upstreams/upstreams';

export interface Reply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  body: any;
}

export interface GatewayUnderTest {
  url: string;
  app: Express;
  keys: KeyVerifier;
  send(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * The gateway's Express app on a real port and a real (scratch) database, in
 * this process, with upstreams that nothing answers: for testing what the
 * gateway decides on its own (accounts, keys, 401/403) without the services.
 * A second instance on the same database is another gateway with its own key
 * verifier and cache (startPeerGateway).
 */
export async function startGatewayUnderTest(
  { sequelize, url: databaseUrl }: { sequelize: Sequelize; url: string },
  overrides: Partial<GatewayConfig> = {},
): Promise<GatewayUnderTest> {
  const config: GatewayConfig = {
    ...readConfig(),
    DATABASE_URL: databaseUrl,
    REFERENCE_ADDR: '127.0.0.1:9',
    FINANCE_ADDR: '127.0.0.1:9',
    AUDIT_ADDR: '127.0.0.1:9',
    UPSTREAM_TIMEOUT_MS: 200,
    ...overrides,
  };
  const logger = createLogger('gateway', 'silent');
  const keys = await startKeyVerifier(sequelize, keyVerifierOptions(config), logger);
  const upstreams = connectUpstreams(config, logger);
  const app = buildApp({ config, logger, sequelize, keys, upstreams, releases: [] });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function send(method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  return {
    url,
    app,
    keys,
    send,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      for (const upstream of allUpstreams(upstreams)) upstream.shutdown();
      await keys.stop();
    },
  };
}

/** A second gateway instance on an existing database: its own connection pool, and so its own key cache. */
export async function startPeerGateway(databaseUrl: string, overrides: Partial<GatewayConfig> = {}): Promise<GatewayUnderTest> {
  const sequelize = createSequelize(databaseUrl, 2);
  const peer = await startGatewayUnderTest({ sequelize, url: databaseUrl }, overrides);
  return {
    ...peer,
    async close() {
      await peer.close();
      await sequelize.close();
    },
  };
}
