import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The full public datasets beside the checkout (../shared/data), or
 * SHARED_DATA_DIR. They are never committed: tests that need them skip when
 * they are absent.
 */
export function sharedDataDir(): string {
  return process.env.SHARED_DATA_DIR || resolve(__dirname, '../../..', '../shared/data');
}

/** The path of a file in the shared datasets, or undefined when it is not there. */
export function sharedDataFile(...parts: string[]): string | undefined {
  const path = join(sharedDataDir(), ...parts);
  return existsSync(path) ? path : undefined;
}
