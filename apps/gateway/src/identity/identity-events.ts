import type { Sequelize, Transaction } from 'sequelize';
import type { ApiKeySnapshot, UserSnapshot } from '@libs/contracts';
import type { Actor } from '@libs/grpc';
import { recordEvent } from '@libs/outbox';

/**
 * identity.events: every change to an account or a key is written to the gateway's outbox in the transaction of the
 * change (libs/outbox, as finance and scheduling do), and the relay publishes it. A snapshot never holds a secret:
 * UserSnapshot and ApiKeySnapshot have no field for a password, hash, key or token (docs/IDENTITY.md, "Events").
 */

/**
 * Who acts, and for which request: what every recorded change names. What the gateway does on its own (the
 * bootstrap admin, demo users, a registration, a reset by mailed link) names GATEWAY_ACTOR of libs/grpc.
 */
export interface ChangeContext {
  requestId: string;
  actor: Actor;
}

type IdentityDraft =
  | { action: `user.${string}`; entityType: 'user'; before?: UserSnapshot; after?: UserSnapshot }
  | { action: `key.${string}`; entityType: 'api_key'; before?: ApiKeySnapshot; after?: ApiKeySnapshot };

/** The user a change concerns: the event's one subject, so that they (and admins) may receive it. */
const subjectOf = (draft: IdentityDraft): string => {
  const snapshot = draft.after ?? draft.before;
  if (!snapshot) throw new Error(`${draft.action} without a snapshot`);
  return 'ownerId' in snapshot ? snapshot.ownerId : snapshot.id;
};

/** Writes the event of one identity change into the outbox, inside the change's transaction. */
export async function recordIdentityEvent(
  sequelize: Sequelize,
  transaction: Transaction,
  change: ChangeContext,
  draft: IdentityDraft,
): Promise<void> {
  const snapshot = draft.after ?? draft.before;
  const subject = subjectOf(draft);
  await recordEvent(
    sequelize,
    transaction,
    { requestId: change.requestId },
    change.actor,
    { ...draft, entityIds: [snapshot?.id ?? subject], before: draft.before ?? null, after: draft.after ?? null },
    async () => [subject],
  );
}
