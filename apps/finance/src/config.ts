import { z } from 'zod';
import {
  busFields,
  cursorSecretField,
  grpcServiceFields,
  actorTrustFields,
  loadConfig,
  outboxFields,
  seedDemoDataField,
  env,
} from '@libs/config';

/** Every variable the service reads (tools/kubernetes/manifests.spec.ts checks the manifests against it). */
export const configSchema = z.object({
  ...grpcServiceFields('finance'),
  ...busFields(),
  ...actorTrustFields(),
  ...outboxFields('finance'),
  CURSOR_SECRET: cursorSecretField('dev-only-finance-cursor-secret'),
  SEED_DEMO_DATA: seedDemoDataField(),
  FILE_SWEEP_INTERVAL_MS: env
    .int(600_000, 100, 86_400_000)
    .describe('how often each instance deletes the uploads no payment named within 24 h of their upload'),
  FILE_STORAGE: z
    .enum(['postgres', 's3'])
    .default('postgres')
    .describe('Where uploaded files (proofs of payment) are kept: `postgres`, chunked in finance\'s own database, or `s3`, an S3-compatible bucket (the S3_ variables).'),
  S3_ENDPOINT: env.optionalUrl(['http:', 'https:']).describe('With FILE_STORAGE=s3: the S3-compatible endpoint (MinIO, Ceph, …); unset for AWS S3 itself.'),
  S3_BUCKET: z.string().default('').describe('With FILE_STORAGE=s3: the bucket files are kept in (required then).'),
  S3_REGION: z.string().default('us-east-1').describe('With FILE_STORAGE=s3: the bucket\'s region.'),
  S3_ACCESS_KEY_ID: z.string().default('').describe('With FILE_STORAGE=s3: the access key; unset to use the default AWS credential chain.'),
  S3_SECRET_ACCESS_KEY: z.string().default('').describe('With FILE_STORAGE=s3: the secret key of S3_ACCESS_KEY_ID.'),
  S3_FORCE_PATH_STYLE: env.bool(true).describe('With FILE_STORAGE=s3: address the bucket in the path (`endpoint/bucket/key`), as most S3-compatible servers want.'),
}).refine((config) => config.FILE_STORAGE !== 's3' || config.S3_BUCKET !== '', { message: 'is required with FILE_STORAGE=s3', path: ['S3_BUCKET'] });

export type FinanceConfig = z.infer<typeof configSchema>;

export const readConfig = (): FinanceConfig => loadConfig('finance', configSchema);
