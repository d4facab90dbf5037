import pg from 'pg';
import { Sequelize } from 'sequelize';

// BIGINT (int8) comes back from pg as a string; keep it that way so no amount
// is ever rounded through a float. Services convert at their edges.
export function createSequelize(url: string, poolMax: number): Sequelize {
  return new Sequelize(url, {
    dialect: 'postgres',
    dialectModule: pg,
    logging: false,
    pool: { max: poolMax, min: 0, idle: 10_000, acquire: 10_000 },
    define: { underscored: true, timestamps: true },
    // A silent network partition must not hold a connection (or its row locks) for minutes: TCP keepalive
    // notices a dead peer, and PostgreSQL ends a transaction left idle by a stuck caller.
    dialectOptions: { keepAlive: true, idle_in_transaction_session_timeout: 60_000 },
  });
}
