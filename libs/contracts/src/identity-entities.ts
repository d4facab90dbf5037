import { z } from 'zod';
import { ROLES } from './api/access';

/**
 * The JSON shape of the gateway's identity entities in the audit log's `before`/`after` (identity.events). Each
 * event type carries the fields its change concerns (docs/IDENTITY.md, "Events"), so every field but the ids is
 * optional. None is ever a secret: no password, hash, key or one-time token has a field here, and the schemas are
 * strict so that a snapshot holding anything else does not type-check or parse.
 */

const instant = z.iso.datetime({ offset: true });

export const userJson = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: z.enum(ROLES).optional(),
    emailVerified: z.boolean().optional(),
    createdAt: instant.optional(),
    /** user.password_changed: whether its owner changed it or it was reset through a mailed link. */
    reason: z.enum(['change', 'reset']).optional(),
    /** user.sessions_revoked: how many sessions ended. */
    sessionsRevoked: z.int().min(0).optional(),
  })
  .strict();
export type UserSnapshot = z.infer<typeof userJson>;

const keyLimitsJson = z
  .object({ rateLimit: z.int().optional(), dailyQuota: z.int().optional(), concurrencyLimit: z.int().optional() })
  .strict();

export const apiKeyJson = z
  .object({
    id: z.uuid(),
    ownerId: z.uuid(),
    name: z.string().optional(),
    createdAt: instant.optional(),
    revokedAt: instant.nullable().optional(),
    /** key.limits_changed: the limits an admin set on this key (absent ones are its role's). */
    limits: keyLimitsJson.optional(),
  })
  .strict();
export type ApiKeySnapshot = z.infer<typeof apiKeyJson>;

/** The gateway holds its entities in their JSON shape already: the audit snapshot is the entity as given. */
export const toUserJson = (user: UserSnapshot): UserSnapshot => ({ ...user });
export const toApiKeyJson = (key: ApiKeySnapshot): ApiKeySnapshot => ({ ...key });
