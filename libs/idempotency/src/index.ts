export { idempotent, type IdempotentCall, type Outcome } from './idempotent';
export { IDEMPOTENCY_KEYS_TABLE } from './table';
