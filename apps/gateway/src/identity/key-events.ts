import { Client } from 'pg';
import type { Sequelize, Transaction } from 'sequelize';
import type { Logger } from '@libs/logging';

/** PostgreSQL NOTIFY channel on which gateway instances tell each other to drop cached keys. */
const CHANNEL = 'gateway_key_events';
const RECONNECT_MS = 1_000;

/** What a cache must forget: one key (by hash) or every key of a user (after a role change). */
export type KeyEvent = { kind: 'key'; keyHash: string } | { kind: 'user'; userId: string };

const encode = (event: KeyEvent): string => (event.kind === 'key' ? `key:${event.keyHash}` : `user:${event.userId}`);

function decode(payload: string | undefined): KeyEvent | undefined {
  const [kind, value] = (payload ?? '').split(':');
  if (!value) return undefined;
  if (kind === 'key') return { kind, keyHash: value };
  if (kind === 'user') return { kind, userId: value };
  return undefined;
}

/** Tells every gateway instance (this one included); inside a transaction it is sent only if that commits. */
export async function announceKeyEvent(sequelize: Sequelize, event: KeyEvent, transaction?: Transaction): Promise<void> {
  await sequelize.query('SELECT pg_notify($1, $2)', { bind: [CHANNEL, encode(event)], transaction });
}

/**
 * LISTENs on one dedicated connection and passes each event on. While the
 * connection is down, events are missed: `onReconnect` lets the owner drop
 * everything it cached, and the cache TTL bounds the gap in any case.
 */
export class KeyEventListener {
  /** The connection in use or being opened; events from older ones are ignored. */
  private current: Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly databaseUrl: string,
    private readonly handlers: { onEvent: (event: KeyEvent) => void; onReconnect: () => void },
    private readonly logger: Logger,
  ) {}

  /** Resolves once listening, or after the first failure (it then keeps retrying in the background). */
  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.databaseUrl });
    this.current = client;
    client.on('notification', (message) => {
      const event = message.channel === CHANNEL ? decode(message.payload) : undefined;
      if (event) this.handlers.onEvent(event);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.handlers.onReconnect();
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: Client, error: unknown): void {
    if (this.stopped || client !== this.current) return;
    this.current = undefined;
    this.logger.warn({ err: error }, 'key event listener lost its connection; cached keys now expire by TTL only');
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.start();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.current;
    this.current = undefined;
    await client?.end().catch(() => undefined);
  }
}
