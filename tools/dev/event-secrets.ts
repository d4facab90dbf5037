import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_STREAMS, generateEventSecrets, type EventSecrets } from '@libs/bus';

/**
 * The producers' event-signing secrets of `npm start`: generated at its first start and kept beside its logs
 * (readable by this user only), so that events still in a queue when it is restarted verify with the same keys.
 * A file missing a producer's secret is replaced by a new one.
 */
export function developmentEventSecrets(dir: string): EventSecrets {
  const file = join(dir, 'event-secrets.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<EventSecrets>;
    if (EVENT_STREAMS.every((stream) => typeof kept[stream] === 'string')) return kept as EventSecrets;
  }
  const secrets = generateEventSecrets();
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}
