import { writeFileSync } from 'node:fs';
import { brokerDefinitions, definitionsFile, DEPLOYED, PLACEHOLDER } from './definitions';
import { passwordsFromEnv, provision } from './provision';

/*
 * Provisions the broker's users, permissions and topology (docs/OPERATIONS.md, "The broker's users"):
 *   tsx tools/broker/main.ts --out <file>     writes the definitions for RabbitMQ's load_definitions
 *   tsx tools/broker/main.ts --apply          imports them into the local node with rabbitmqctl
 *   tsx tools/broker/main.ts --placeholder    writes the committed copy without passwords (after a topology change)
 * Each service's password comes from <SERVICE>_AMQP_PASSWORD; the hashes are made here, never committed.
 */
const args = process.argv.slice(2);
const out = args.indexOf('--out');
if (args.includes('--placeholder')) {
  writeFileSync(PLACEHOLDER, definitionsFile(brokerDefinitions(DEPLOYED)));
} else if (out >= 0 && args[out + 1]) {
  // Readable by the broker's own user in the container that loads it.
  writeFileSync(args[out + 1], definitionsFile(brokerDefinitions(DEPLOYED, passwordsFromEnv(process.env))), { mode: 0o644 });
} else if (args.includes('--apply')) {
  provision(DEPLOYED, passwordsFromEnv(process.env));
} else {
  throw new Error('usage: tsx tools/broker/main.ts --out <file> | --apply | --placeholder');
}
