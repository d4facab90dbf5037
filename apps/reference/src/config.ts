import { join } from 'node:path';
import { z } from 'zod';
import { env, grpcServiceFields, loadConfig, metricsFields } from '@libs/config';
import { DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS } from '@libs/reference-db';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...metricsFields(9464),
  ...grpcServiceFields('reference', 50051),
  CURSOR_SECRET: env.secret('dev-only-cursor-secret-change-me'),
  DEFAULT_DATA_DIR: env.text(join(__dirname, 'default-data')),
  LOAD_DEFAULT_DATA: env.bool(true),
  // Every disease search statement is stopped after this long at the database (docs/SEARCH.md).
  SEARCH_STATEMENT_TIMEOUT_MS: env.int(DEFAULT_SEARCH_STATEMENT_TIMEOUT_MS, 1, 60_000),
});

export type ReferenceConfig = z.infer<typeof configSchema>;

export const readConfig = (): ReferenceConfig => loadConfig('reference', configSchema);
