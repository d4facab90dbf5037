export { startOutbox, type OutboxSettings, type RunningOutbox } from './start-outbox';
export { auditEventOf, outboxInsert, recordEvent, recordsOf, type EventDraft, type Readers } from './record-event';
export { outboxPayloadBytes } from './payload-bytes';
export { OUTBOX_TABLES } from './tables';
export { writeTransaction, writeTransactionInRounds, type WriteDeps } from './write-transaction';
