import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder that holds the checkout (this file is libs/testing/src/ inside it). */
const CHECKOUT_PARENT = resolve(__dirname, '../../../..');

/**
 * The folder of the full public datasets (docs/decisions/0011): SHARED_DATA_DIR, by default
 * `shared/data` in the folder that holds the checkout. They are never committed: tests that need
 * them skip when they are absent.
 */
export function sharedDataDir(): string {
  return process.env.SHARED_DATA_DIR || join(CHECKOUT_PARENT, 'shared', 'data');
}

/** The path of a file in the shared datasets, or undefined when it is not there. */
export function sharedDataFile(...parts: string[]): string | undefined {
  const path = join(sharedDataDir(), ...parts);
  return existsSync(path) ? path : undefined;
}
