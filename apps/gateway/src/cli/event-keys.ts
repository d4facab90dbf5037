/**
 * `FINANCE_EVENT_SIGNING_SECRET=… SCHEDULING_EVENT_SIGNING_SECRET=… IDENTITY_EVENT_SIGNING_SECRET=… node
 * dist/apps/gateway/cli/event-keys.cjs`: prints the EVENT_TRUSTED_KEYS that audit and notifications need for those
 * producers' signing secrets (named as docker-compose.yml names them), so that the consumers can be configured
 * before any producer first starts (each producer logs its own entry at start, as `trustedAs`).
 */
import { EVENT_STREAMS } from '@libs/bus';
import { keyPairOf, trustedKeyEntry } from '@libs/signing';

const entries = EVENT_STREAMS.map((stream) => {
  const name = `${stream.toUpperCase()}_EVENT_SIGNING_SECRET`;
  const secret = process.env[name];
  if (!secret) {
    process.stderr.write(`set ${name}\n`);
    process.exit(2);
  }
  return trustedKeyEntry(stream, keyPairOf(secret).publicKey);
});
process.stdout.write(`${entries.join(',')}\n`);
