import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

/** Starts a built service with these variables over the environment; it is expected to stop at once. */
const startWith = (service: string, env: Record<string, string>) =>
  spawnSync(process.execPath, [join(ROOT, 'dist/apps', service, 'main.cjs')], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 10_000 });

describe('configuration is validated at start', () => {
  it.each([
    ['gateway', 'PORT', 'not-a-port'],
    ['gateway', 'REFERENCE_ADDR', 'no port here'],
    ['gateway', 'CORS_ALLOWED_ORIGINS', 'https://app.example.org/path'],
    ['reference', 'GRPC_PORT', '99999'],
    ['finance', 'AMQP_URL', 'http://localhost'],
    ['audit', 'DATABASE_URL', 'mysql://localhost/audit'],
    ['finance', 'SEED_DEMO_DATA', 'maybe'],
    ['scheduling', 'REFERENCE_ADDR', 'no port here'],
    ['scheduling', 'HOLD_SWEEP_MS', '10'],
  ])('%s stops with one line naming %s', (service, variable, value) => {
    const result = startWith(service, { [variable]: value });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${service}: invalid configuration: ${variable}=`));
  });

  // A development secret is in this repository: a process that other machines can reach must not sign with it, nor
  // believe what it signed (the development actor key's public half).
  it.each([
    ['gateway', 'HOST', 'ACTOR_SIGNING_KEY=(unset)'],
    ['gateway', 'METRICS_HOST', 'ACTOR_SIGNING_KEY=(unset)'],
    ['reference', 'GRPC_HOST', 'CURSOR_SECRET=(unset)'],
    ['finance', 'METRICS_HOST', 'ACTOR_TRUSTED_KEYS=(unset)'],
  ])('%s with %s=0.0.0.0 and no secret of its own stops with one line naming %s', (service, host, secret) => {
    const result = startWith(service, { [host]: '0.0.0.0' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `${service}: invalid configuration: ${secret} is a development value, which is public; set a secret of your own with ${host}=0.0.0.0 (not loopback)`,
    ]);
  });
});
