import { writeFileSync } from 'node:fs';
import { brokerDefinitions, definitionsFile, DEPLOYED } from './definitions';
import { passwordsFromEnv, provision } from './provision';

/*
 * Provisions the broker's users, permissions and topology (docs/OPERATIONS.md, "The broker's users"):
 *   tsx tools/broker/main.ts --out <file>   writes the definitions for RabbitMQ's load_definitions
 *   tsx tools/broker/main.ts --apply        imports them into the local node with rabbitmqctl
 * Each service's password comes from <SERVICE>_AMQP_PASSWORD; the hashes are made here, never committed.
 */
const args = process.argv.slice(2);
const passwords = passwordsFromEnv(process.env);
const out = args.indexOf('--out');
if (out >= 0 && args[out + 1]) {
  // Readable by the broker's own user in the container that loads it.
  writeFileSync(args[out + 1], definitionsFile(brokerDefinitions(DEPLOYED, passwords)), { mode: 0o644 });
} else if (args.includes('--apply')) {
  provision(DEPLOYED, passwords);
} else {
  throw new Error('usage: tsx tools/broker/main.ts --out <file> | --apply');
}
