import type { Migration } from '@libs/db';
import { outboxPayloadBytes } from '@libs/outbox';
import { m0001Ledger } from './0001-ledger';
import { m0002Outbox } from './0002-outbox';
import { m0003PaymentsAndStatements } from './0003-payments-and-statements';
import { m0004RecordVersions } from './0004-record-versions';
import { m0005OutboxTraceParent } from './0005-outbox-trace-parent';
import { m0006OutboxQueueWatch } from './0006-outbox-queue-watch';
import { m0007Reversals } from './0007-reversals';
import { m0008Files } from './0008-files';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  m0001Ledger,
  m0002Outbox,
  m0003PaymentsAndStatements,
  m0004RecordVersions,
  m0005OutboxTraceParent,
  m0006OutboxQueueWatch,
  m0007Reversals,
  m0008Files,
  outboxPayloadBytes('0009-outbox-payload-bytes'),
];
