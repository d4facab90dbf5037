import { z } from 'zod';
import { IDENTITY_LIMITS, ROLES } from '@libs/contracts';
import { TOKEN_PATTERN } from './account-tokens';
import { LIMIT_MAX, LIMIT_NAMES } from './limits/key-limits';

/** Requests and answers of the identity area: accounts, sessions and API keys (docs/IDENTITY.md). */

const uuid = z.guid();
const dateTime = z.string().meta({ format: 'date-time' });
const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });

/** Emails are compared in lower case: Ada@Example.org and ada@example.org are one account. */
export const emailField = z
  .string({ message: 'must be a string' })
  .max(IDENTITY_LIMITS.emailMaxLength, { message: `must be at most ${IDENTITY_LIMITS.emailMaxLength} characters` })
  .pipe(z.email({ message: 'must be an email address such as ada@example.org' }))
  .transform((email) => email.toLowerCase());

/** Length limits, checked before hashing so that nobody can make the server hash a megabyte. */
const { passwordMinLength, passwordMaxLength } = IDENTITY_LIMITS;
export const passwordField = z
  .string({ message: 'must be a string' })
  .min(passwordMinLength, { message: `must be at least ${passwordMinLength} characters` })
  .max(passwordMaxLength, { message: `must be at most ${passwordMaxLength} characters` });

export const credentials = z.object({ email: emailField, password: passwordField }).strict().meta({ id: 'Credentials' });

export const user = z
  .object({
    id: uuid,
    email: z.email(),
    role: z.enum(ROLES),
    emailVerified: z.boolean().meta({ description: 'Whether the owner proved the address; until then the account stays a reader.' }),
    createdAt: dateTime,
  })
  .meta({ id: 'User' });

const limitDescriptions = {
  rateLimit: 'Requests per minute, refilled continuously.',
  dailyQuota: 'Requests per UTC day.',
  concurrencyLimit: "Calls to the services in progress at once for the key's requests, per gateway instance.",
} as const;
const limitValue = (name: keyof typeof LIMIT_MAX) => z.int().min(1).max(LIMIT_MAX[name]).meta({ description: limitDescriptions[name] });
const limitProperties = {
  rateLimit: limitValue('rateLimit'),
  dailyQuota: limitValue('dailyQuota'),
  concurrencyLimit: limitValue('concurrencyLimit'),
};

export const keySummary = z
  .object({
    id: uuid,
    name: z.string(),
    prefix: z.string().meta({ description: 'The visible start of the key, e.g. `cfk_1a2b3c4d`.' }),
    createdAt: dateTime,
    lastUsedAt: z.string().nullable().meta({ format: 'date-time' }),
    requestCount: z.int().min(0),
  })
  .meta({ id: 'KeySummary', description: 'An API key as its owner sees it later: never the key itself.' });

const keyLimits = z.object(limitProperties).strict().meta({ id: 'KeyLimits' });

export const listedKey = z
  .intersection(
    keySummary,
    z.object({
      limits: keyLimits,
      customLimits: z
        .object(limitProperties)
        .partial()
        .strict()
        .meta({ description: 'The limits an admin set for this key; the others are the role defaults.' }),
    }),
  )
  .meta({ id: 'ListedKey', description: "A key as listed: with the limits it is under (its own where an admin set them, its role's otherwise)." });

export const newKey = z
  .intersection(keySummary, z.object({ key: z.string().regex(/^cfk_/) }))
  .meta({ id: 'NewKey', description: 'A key as created: the only time `key` is shown.' });

export const keyList = z.object({ keys: z.array(listedKey) });

export const newKeyBody = z
  .object({
    name: z
      .string({ message: 'must be a string' })
      .trim()
      .max(IDENTITY_LIMITS.keyNameMaxLength, { message: `must be at most ${IDENTITY_LIMITS.keyNameMaxLength} characters` })
      .optional(),
  })
  .strict();

/** A limit an admin sets for one key, or null for the role's default again. */
const limitSetting = (name: keyof typeof LIMIT_MAX) =>
  z
    .number({ message: 'must be a whole number, or null for the role default' })
    .int({ message: 'must be a whole number' })
    .min(1, { message: 'must be at least 1' })
    .max(LIMIT_MAX[name], { message: `must be at most ${LIMIT_MAX[name]}` })
    .nullable()
    .optional()
    .meta({ description: limitDescriptions[name] });

export const limitsBody = z
  .object({ rateLimit: limitSetting('rateLimit'), dailyQuota: limitSetting('dailyQuota'), concurrencyLimit: limitSetting('concurrencyLimit') })
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: `name at least one of ${LIMIT_NAMES.join(', ')}` });

export const roleBody = z.object({ role }).strict();

export const session = z.object({ token: z.string().regex(/^cfs_/), expiresAt: dateTime, user });

export const registrationAccepted = z.object({ status: z.literal('accepted'), detail: z.string() }).strict();

export const userPage = z.object({ users: z.array(user), nextAfter: z.string().optional() });

/** The one-time token of a mailed link (`#verify?token=…`, `#reset?token=…`). */
const tokenField = z
  .string({ message: 'must be a string' })
  .regex(TOKEN_PATTERN, { message: 'must be the 43-character token of the link' })
  .meta({ description: 'The token from the mailed link.' });

export const verifyEmailBody = z.object({ token: tokenField }).strict();

export const resetRequestBody = z.object({ email: emailField }).strict();

export const resetConfirmBody = z.object({ token: tokenField, password: passwordField }).strict();

export const passwordChangeBody = z.object({ current: passwordField, new: passwordField }).strict();

export const resetAccepted = z.object({ status: z.literal('accepted'), detail: z.string() }).strict();
