import type { Migration } from '@libs/db';
import { m0001AuditEntries } from './0001-audit-entries';
import { m0002AuditTraceId } from './0002-audit-trace-id';
import { m0003AuditSchemaVersion } from './0003-audit-schema-version';
import { m0004AuditSubjects } from './0004-audit-subjects';
import { m0005AuditCheckpoints } from './0005-audit-checkpoints';
import { m0006AuditBodyBytes } from './0006-audit-body-bytes';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [m0001AuditEntries, m0002AuditTraceId, m0003AuditSchemaVersion, m0004AuditSubjects, m0005AuditCheckpoints, m0006AuditBodyBytes];
