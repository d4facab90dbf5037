import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@libs/topology';

/*
 * Nx learns a project's dependencies from its imports. The end-to-end tests import no app, yet start every declared
 * service from dist/: their project names each one, so that Nx builds them first and re-runs the tests after a change.
 */
const ROOT = join(__dirname, '..', '..');
const projectOf = (folder: string) => JSON.parse(readFileSync(join(ROOT, folder, 'project.json'), 'utf8')) as Record<string, unknown>;

describe('the Nx projects', () => {
  it.each(SERVICE_NAMES)('have a project named %s in its app folder', (service) => {
    expect(projectOf(join('apps', service)).name).toBe(service);
  });

  it('make the end-to-end tests depend on every declared service', () => {
    expect(projectOf(join('apps', 'e2e')).implicitDependencies).toEqual(SERVICE_NAMES);
  });
});
