import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The services of docker-compose.yml, each with its own lines. The file's layout is fixed by this project
 * (two-space indentation, one top-level `services:`), which is all this reads; no YAML library is needed.
 */
function composeServices(text: string): Map<string, string[]> {
  const services = new Map<string, string[]>();
  let inServices = false;
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      inServices = line === 'services:';
      current = undefined;
    } else if (inServices && /^ {2}[\w-]+:$/.test(line)) {
      current = [];
      services.set(line.trim().slice(0, -1), current);
    } else {
      current?.push(line);
    }
  }
  return services;
}

describe('docker-compose.yml', () => {
  const services = composeServices(readFileSync(join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8'));

  it('runs the database, the broker and every service', () => {
    expect([...services.keys()]).toEqual(expect.arrayContaining(['postgres', 'rabbitmq', 'reference', 'finance', 'audit', 'scheduling', 'gateway']));
  });

  it.each([...services.keys()])('restarts %s after a crash, unless it was stopped on purpose', (service) => {
    expect(services.get(service)).toContain('    restart: unless-stopped');
  });
});
