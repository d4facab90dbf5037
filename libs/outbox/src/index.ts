export { startOutbox, type OutboxSettings, type RunningOutbox } from './start-outbox';
export { auditEventOf, outboxInsert, recordEvent, type EventDraft } from './record-event';
export { OUTBOX_TABLES } from './tables';
export { writeTransaction, writeTransactionInRounds, type OnceCall, type WriteDeps } from './write-transaction';
