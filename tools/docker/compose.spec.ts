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

  it.each(Object.keys(services))('restarts %s after a crash, unless it was stopped on purpose', (service) => {
    expect(services[service].restart).toBe('unless-stopped');
  });
});
