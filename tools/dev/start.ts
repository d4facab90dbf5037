/**
 * `npm start`: runs the built services on this machine with their default
 * configuration (databases are created, migrated and given the default data as
 * each service starts), prints the gateway URL and a ready key per role, keeps
 * every service running (a crashed one is restarted: supervisor.ts), and stops
 * everything cleanly on Ctrl-C. Logs go to tmp/logs/<service>.log and, in short
 * form, to the terminal. Each producer signs its events with a key generated at the first start (event-secrets.ts),
 * which the consumers are told to trust. START_* variables (services.ts) move it aside, so a
 * second system can run beside the first. A mail catcher (mail-catcher.ts) takes the mail the services send: each
 * message is kept under tmp/mail/ as an .eml file, and one line per message is printed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { eventKeyEnv } from '@libs/bus';
import { HealthProbe } from '@libs/grpc';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from '@libs/lifecycle';
import { waitFor } from '@libs/testing';
import { developmentEventSecrets } from './event-secrets';
import { startMailCatcher, type MailCatcher } from './mail-catcher';
import { RESTART_POLICY } from './restart-policy';
import { planStart, type PlannedService } from './services';
import { Supervisor } from './supervisor';

const ROOT = join(__dirname, '..', '..');
/** Set once every service answered: from then on a service that cannot be restarted no longer stops the rest. */
let up = false;

function short(service: string, line: string): string {
  try {
    const entry = JSON.parse(line) as { level?: string; msg?: string; err?: { message?: string } };
    return `[${service}] ${entry.level ?? ''} ${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
  } catch {
    return `[${service}] ${line}`;
  }
}

const supervisor = new Supervisor({
  policy: RESTART_POLICY,
  // Request logs would drown the terminal; they stay in the log file.
  echo: (service, line) => {
    if (!line.includes('"req":')) console.log(short(service, line));
  },
  onGiveUp: (service) => {
    if (!up) {
      console.error(`npm start failed: ${service} could not start`);
      void stopAll(1);
    } else {
      console.error(`${service} stays stopped; the other services keep running. Ctrl-C stops them.`);
    }
  },
});

let stopping = false;
let catcher: MailCatcher | undefined;
async function stopAll(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log('stopping…');
  await supervisor.stopAll();
  await catcher?.close();
  process.exit(exitCode);
}

async function main(): Promise<void> {
  const plan = planStart(process.env);
  mkdirSync(plan.logDir, { recursive: true });
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  const eventSecrets = developmentEventSecrets(plan.logDir);
  const envOf = (service: PlannedService) => ({
    NODE_ENV: 'development',
    ...process.env,
    ...SERVICE_ENV,
    ...service.env,
    ...eventKeyEnv(eventSecrets, service.name),
  });
  const run = (service: PlannedService) =>
    supervisor.start({
      name: service.name,
      args: [...SERVICE_NODE_FLAGS, join(ROOT, 'dist/apps', service.name, 'main.cjs')],
      env: envOf(service),
      logFile: join(plan.logDir, `${service.name}.log`),
    });

  catcher = await startMailCatcher({ port: plan.mail.port, dir: plan.mail.dir, root: ROOT, print: (line) => console.log(`[mail] ${line}`) });
  for (const service of plan.grpcServices) run(service);
  await Promise.all(
    plan.grpcServices.map(async ({ address }) => {
      const probe = new HealthProbe(address);
      try {
        await probe.waitUntilServing(120_000);
      } finally {
        probe.close();
      }
    }),
  );
  run(plan.gateway);
  const gatewayUrl = plan.gateway.url;
  await waitFor('the gateway to become ready', async () => ((await fetch(`${gatewayUrl}/readyz`)).ok ? true : undefined), 60_000);
  up = true;

  console.log(`
The system is up.

gateway: ${gatewayUrl}
dashboard: ${gatewayUrl}/dashboard/
mail: every message the system sends is printed here as [mail] and kept in ${relative(ROOT, plan.mail.dir)}/`);
  // Demo users and keys are a development convenience; in production nothing is printed and none exist.
  if (process.env.NODE_ENV === 'production') {
    console.log('\nNODE_ENV=production: no demo keys. Sign up on the dashboard, or set BOOTSTRAP_ADMIN_EMAIL/PASSWORD.');
  } else {
    const keys = execFileSync(process.execPath, [join(ROOT, 'dist/apps/gateway/cli/demo-keys.cjs')], {
      env: envOf(plan.gateway),
      encoding: 'utf8',
    });
    const adminKey = /^demo admin key: (\S+)$/m.exec(keys)?.[1];
    console.log(`${keys.trim()}

Try:
  curl -H "Authorization: Bearer ${adminKey}" "${gatewayUrl}/api/v1/diseases?n=diabtes%20melitus&r=false"`);
  }
  console.log('\nPress Ctrl-C to stop. A service that exits on its own is restarted.');
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
