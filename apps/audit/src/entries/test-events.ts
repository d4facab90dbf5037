import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@libs/contracts';
import { CheckpointKeys } from '../checkpoints/checkpoint-keys';

/** A valid event for tests; override what the test is about. */
export const testEvent = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  eventId: randomUUID(),
  occurredAt: new Date().toISOString(),
  action: 'transaction.created',
  entityType: 'transaction',
  entityIds: [randomUUID()],
  actor: { userId: 'u1', role: 'bursar' },
  requestId: 'req-1',
  before: null,
  after: { amount: '100', nested: { b: 1, a: [1, 2] } },
  ...overrides,
});

/** The checkpoint keys specs verify with: derived from a secret of their own, trusting no earlier key. */
export const testCheckpointKeys = () => new CheckpointKeys('a checkpoint secret for the specs', '');
