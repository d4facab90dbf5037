import { z } from 'zod';
import { problem } from './responses';

/** Request headers several operations declare. */
const IDEMPOTENCY_KEY_MESSAGE = 'must be 1 to 255 visible ASCII characters (a UUID is a good choice)';
// Visible ASCII only: the key is echoed in errors and stored per user.
export const idempotencyKey = z
  .string()
  .min(1, { message: IDEMPOTENCY_KEY_MESSAGE, abort: true })
  .max(255, { message: IDEMPOTENCY_KEY_MESSAGE, abort: true })
  .regex(/^[\x21-\x7e]+$/, { message: IDEMPOTENCY_KEY_MESSAGE })
  .optional()
  .meta({
    description:
      'A retry with the same key by the same user within 24 h returns the first response and writes nothing new; the same key with another request → 409.',
  });

/** Headers of a write that honours Idempotency-Key. */
export const idempotentWrite = z.object({ 'Idempotency-Key': idempotencyKey });

/** On the answer to a write that repeated an Idempotency-Key: the first response, not a new write. */
export const idempotentReplayed = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key: nothing new was written.',
    schema: z.literal('true'),
  },
};

/** The refusal of a write whose Idempotency-Key came with another request before. */
export const conflictOnKey = { '409': problem('The Idempotency-Key was used with another request.') };

/** Whether an operation's request declares Idempotency-Key. */
export const takesIdempotencyKey = (headers: z.ZodObject | undefined) => headers !== undefined && 'Idempotency-Key' in headers.shape;
