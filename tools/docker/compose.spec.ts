import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES, TOPOLOGY } from '@libs/topology';
import { brokerServices, passwordVariable } from '../broker/definitions';
import { composeProblems, composeServices, INFRASTRUCTURE, ONE_SHOT } from './compose';

describe('docker-compose.yml', () => {
  const services = composeServices(readFileSync(join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8'));

  it('runs the database, the broker and every declared service, each wired as declared', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(INFRASTRUCTURE));
    expect(composeProblems(services, TOPOLOGY)).toEqual([]);
  });

  it('publishes no port of the broker and runs no management plugin', () => {
    expect(services.rabbitmq.ports).toBeUndefined();
    expect(services.rabbitmq.image).not.toMatch(/management/);
  });

  it('loads the generated definitions into the broker, so that it creates no guest user', () => {
    expect(services.rabbitmq.environment?.RABBITMQ_DEFAULT_USER).toBeUndefined();
    expect(services.rabbitmq.volumes).toContain('./tools/docker/rabbitmq.conf:/etc/rabbitmq/conf.d/20-clinical.conf:ro');
    expect(readFileSync(join(__dirname, 'rabbitmq.conf'), 'utf8')).toMatch(/^load_definitions = \/etc\/rabbitmq\/definitions\/definitions\.json$/m);
    expect(services.rabbitmq.depends_on?.['broker-definitions']?.condition).toBe('service_completed_successfully');
    expect(Object.keys(services['broker-definitions'].environment ?? {})).toEqual(brokerServices().map(passwordVariable));
  });

  it.each(SERVICE_NAMES)('connects %s to the broker as its own user, if it has one', (name) => {
    const url = services[name].environment?.AMQP_URL;
    const own = brokerServices().includes(name) ? `amqp://${name}:\${${passwordVariable(name)}}@rabbitmq:5672` : undefined;
    expect(url).toBe(own);
  });

  it.each(Object.keys(services).filter((name) => !ONE_SHOT.includes(name)))('restarts %s after a crash, unless it was stopped on purpose', (service) => {
    expect(services[service].restart).toBe('unless-stopped');
  });

  it.each(ONE_SHOT)('runs %s once: compose does not start it again after it exits', (service) => {
    expect(services[service].restart).toBe('no');
  });
});
