/** Metadata keys the gateway sets on every call; the actor is a token that a service checks (actor-token.ts). */
export const METADATA = {
  requestId: 'x-request-id',
  actorToken: 'x-actor-token',
  fieldErrors: 'x-field-errors',
  /** On RESOURCE_EXHAUSTED: the service refused the call for its cost, and says when to try again (seconds). */
  retryAfter: 'x-retry-after',
  /** On a refusal that carries more than a message: `{type, ...members}` as JSON (ProblemError). */
  problem: 'x-problem',
  /** In a write's response headers: it repeated an Idempotency-Key, and the answer is the first one's. */
  idempotentReplayed: 'x-idempotent-replayed',
} as const;
