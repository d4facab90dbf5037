import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brokerDefinitions, brokerServices, definitionsFile, passwordVariable, type BrokerPlace } from './definitions';

/**
 * Imports the broker's definitions, with hashes of these passwords, into the local node (rabbitmqctl, as root).
 * rabbitmqctl reads the file as the broker's own user and cannot read standard input behind the Debian wrapper,
 * so the file sits in a folder others may enter but not list, for as long as the import takes.
 */
export function provision(place: BrokerPlace, passwords: Readonly<Record<string, string>>): void {
  const folder = mkdtempSync(join(tmpdir(), 'broker-'));
  try {
    chmodSync(folder, 0o711);
    const file = join(folder, 'definitions.json');
    writeFileSync(file, definitionsFile(brokerDefinitions(place, passwords)), { mode: 0o644 });
    execFileSync('rabbitmqctl', ['import_definitions', file], { stdio: 'pipe' });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Every broker service's password from the environment; a missing one is refused, not left empty. */
export function passwordsFromEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const missing = brokerServices().filter((service) => !env[passwordVariable(service)]);
  if (missing.length > 0) throw new Error(`set ${missing.map(passwordVariable).join(', ')}`);
  return Object.fromEntries(brokerServices().map((service) => [service, String(env[passwordVariable(service)])]));
}
