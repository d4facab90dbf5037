import { join } from 'node:path';
import { z } from 'zod';
import { cursorSecretField, env, grpcServiceFields, loadConfig } from '@libs/config';
import { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS } from '@libs/reference-db';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...grpcServiceFields('reference'),
  CURSOR_SECRET: cursorSecretField('dev-only-cursor-secret-change-me'),
  DEFAULT_DATA_DIR: env
    .text(join(__dirname, 'default-data'))
    .meta({ shownDefault: '`default-data` beside the built service', description: 'where the bundled default dataset lives' }),
  LOAD_DEFAULT_DATA: env.bool(true).describe('load the default dataset on first start (once; a restart leaves the data as it is)'),
  SEARCH_STATEMENT_TIMEOUT_MS: env
    .int(DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, 1, 60_000)
    .describe(
      'longest a disease or drug search statement may run at the database; a search it stops is answered 429 with `Retry-After` ([docs/SEARCH.md](docs/SEARCH.md#bounds-what-one-search-may-cost))',
    ),
});

export type ReferenceConfig = z.infer<typeof configSchema>;

export const readConfig = (): ReferenceConfig => loadConfig('reference', configSchema);
