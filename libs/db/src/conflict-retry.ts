import { randomInt } from 'node:crypto';
import { sqlStateOf } from './database-errors';

/**
 * Deadlock (40P01) and serialization failure (40001): PostgreSQL rolled the transaction back because of another
 * one, and the same transaction, run again, usually passes.
 */
const CONFLICT_STATES = new Set(['40P01', '40001']);
const ATTEMPTS = 4;

/**
 * Runs a whole transaction (`transaction` begins and ends it) again after a deadlock or serialization failure, up
 * to ATTEMPTS times in all. Each retry waits a random pause whose ceiling doubles (full jitter), so transactions
 * that collided do not collide again in step. Anything the transaction does outside the database is done again
 * too: it must do nothing there.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= ATTEMPTS || !CONFLICT_STATES.has(sqlStateOf(error) ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, randomInt(1, 20 * 2 ** attempt)));
    }
  }
}
