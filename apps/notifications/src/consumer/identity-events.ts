import type { Sequelize } from 'sequelize';
import { z } from 'zod';
import { IDENTITY_LIMITS, ROLES } from '@libs/contracts';
import type { Logger } from '@libs/logging';
import type { StreamExtras } from './handle-event-message';
import { notifiedEventSchema } from './notified-event';

/** The events that tell this service about a user's address and role; the other identity events change nothing here. */
const RECIPIENT_EVENTS = new Set(['user.registered', 'user.email_verified', 'user.role_changed']);

/** What a user event's `after` tells: the user, their address, whether it is proved, their role. */
const userSnapshot = z
  .object({
    id: z.string().min(1).max(64),
    email: z.email().max(IDENTITY_LIMITS.emailMaxLength),
    emailVerified: z.boolean(),
    role: z.enum(ROLES).optional(),
  })
  .loose();

const identityEventSchema = notifiedEventSchema.refine((event) => !RECIPIENT_EVENTS.has(event.action) || userSnapshot.safeParse(event.after).success, {
  path: ['after'],
  message: 'must be a user with id, a valid email and emailVerified',
});

/**
 * What identity.events adds to the handling every stream gets (webhooks, mail): the recipients read model
 * (user.registered, user.email_verified, user.role_changed): each user's address, whether they proved it, and their
 * role. Applying the latest state is idempotent, and an event older than the one applied last (identity_at) changes
 * nothing, so redeliveries and reordering are harmless.
 */
export function recipientsFromIdentity(handling: { sequelize: Sequelize; logger: Logger }): StreamExtras {
  const { sequelize, logger } = handling;
  return {
    schema: identityEventSchema,
    async beforeStore(event) {
      if (!RECIPIENT_EVENTS.has(event.action)) return;
      const user = userSnapshot.parse(event.after);
      await sequelize.query(
        `INSERT INTO recipients (user_id, role, email, email_verified, identity_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id) DO UPDATE
           SET role = coalesce($6, recipients.role), email = excluded.email, email_verified = excluded.email_verified,
               identity_at = excluded.identity_at
         WHERE recipients.identity_at IS NULL OR recipients.identity_at <= excluded.identity_at`,
        { bind: [user.id, user.role ?? 'reader', user.email, user.emailVerified, event.occurredAt, user.role ?? null] },
      );
      logger.debug({ eventId: event.eventId, action: event.action, userId: user.id }, 'recipient updated');
    },
  };
}
