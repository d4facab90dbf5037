import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { z } from 'zod';

const ROOT = join(__dirname, '..', '..');

/**
 * A declared service's configuration schema (`configSchema` of apps/<name>/src/config.ts), the one place the
 * variables it reads and their defaults are defined. The README's configuration table is written from it, and the
checks compare the declaration and the manifests with it.
 * It is loaded by the service's name, so a new service needs no line here: this, and nothing else of an app, is
 * what a tool may read (README.md, "Architecture").
 */
export function configSchemaOf(service: string): z.ZodObject {
  const path = join(ROOT, 'apps', service, 'src', 'config.ts');
  if (!existsSync(path)) throw new Error(`${service} is declared, but ${relative(ROOT, path)} is missing`);
  return (require(path) as { configSchema: z.ZodObject }).configSchema;
}
