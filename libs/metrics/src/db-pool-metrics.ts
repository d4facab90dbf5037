import { Gauge } from 'prom-client';
import type { Sequelize } from 'sequelize';
import { metricsRegistry } from './registry';

/** The parts of sequelize-pool's Pool that say how busy it is. */
interface PoolStats {
  size: number;
  available: number;
  using: number;
  waiting: number;
  maxSize: number;
}

/** Exposes how the service's database pool is used: a pool that stays full with requests waiting needs attention. */
export function registerDbPoolMetrics(sequelize: Sequelize): void {
  const pool = () => (sequelize.connectionManager as unknown as { pool: PoolStats }).pool;
  const registers = [metricsRegistry()];
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections held by the pool, by state (in_use or idle)',
    labelNames: ['state'],
    registers,
    collect() {
      this.set({ state: 'in_use' }, pool().using);
      this.set({ state: 'idle' }, pool().available);
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'The most connections the pool may open (DB_POOL_MAX)',
    registers,
    collect() {
      this.set(pool().maxSize);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_requests',
    help: 'Queries waiting for a free connection',
    registers,
    collect() {
      this.set(pool().waiting);
    },
  });
}
