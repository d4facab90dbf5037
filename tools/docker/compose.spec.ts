import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOPOLOGY } from '@libs/topology';
import { composeProblems, composeServices, INFRASTRUCTURE } from './compose';

describe('docker-compose.yml', () => {
  const services = composeServices(readFileSync(join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8'));

  it('runs the database, the broker and every declared service, each wired as declared', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(INFRASTRUCTURE));
    expect(composeProblems(services, TOPOLOGY)).toEqual([]);
  });

  it('publishes nothing of the broker beyond the host’s loopback, and no service connects as guest', () => {
    for (const port of services.rabbitmq.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    expect(services.rabbitmq.environment?.RABBITMQ_DEFAULT_USER).not.toBe('guest');
    for (const [name, service] of Object.entries(services)) {
      const url = service.environment?.AMQP_URL;
      if (url !== undefined) expect({ name, user: new URL(url.replace(/\$\{[^}]*\}/g, 'secret')).username }).toEqual({ name, user: 'clinical' });
    }
  });

  it.each(Object.keys(services))('restarts %s after a crash, unless it was stopped on purpose', (service) => {
    expect(services[service].restart).toBe('unless-stopped');
  });
});
