import pg from 'pg';
import { Sequelize } from 'sequelize';

// BIGINT (int8) comes back from pg as a string; keep it that way so no amount
// is ever rounded through a float. Services convert at their edges.
// A query that waits acquireTimeoutMs for a free connection fails with a ConnectionAcquireTimeoutError; services
// pass DB_POOL_ACQUIRE_TIMEOUT_MS, tools and tests keep the default.
export function createSequelize(url: string, poolMax: number, acquireTimeoutMs = 10_000): Sequelize {
  return new Sequelize(url, {
    dialect: 'postgres',
    dialectModule: pg,
    logging: false,
    pool: { max: poolMax, min: 0, idle: 10_000, acquire: acquireTimeoutMs },
    define: { underscored: true, timestamps: true },
    // A silent network partition must not hold a connection (or its row locks) for minutes: TCP keepalive
    // notices a dead peer, and PostgreSQL ends a transaction left idle by a stuck caller.
    dialectOptions: { keepAlive: true, idle_in_transaction_session_timeout: 60_000 },
  });
}
