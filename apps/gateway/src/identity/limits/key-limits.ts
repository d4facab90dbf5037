import { env } from '@libs/config';
import { ROLES, type Role } from '@libs/contracts';

/** What one API key may use. */
export interface KeyLimits {
  /** Admitted requests per minute, refilled continuously (one every 60/rateLimit seconds). */
  rateLimit: number;
  /** Admitted requests per UTC day. */
  dailyQuota: number;
  /** Calls to the services in progress at once for the key's requests, per gateway instance. */
  concurrencyLimit: number;
}

export type LimitName = keyof KeyLimits;
/** The limits an admin set for one key; the others are its role's. */
export type CustomLimits = Partial<KeyLimits>;

export const LIMIT_NAMES = ['rateLimit', 'dailyQuota', 'concurrencyLimit'] as const satisfies readonly LimitName[];

/** The largest value each limit takes, from the environment or from an admin (the columns are integers). */
export const LIMIT_MAX: KeyLimits = { rateLimit: 1_000_000, dailyQuota: 1_000_000_000, concurrencyLimit: 10_000 };

/**
 * Each role's limits unless configured. A record over Role: a role added to
 * ROLES does not compile until its limits are chosen here. Readers are anyone
 * who registers, so theirs are the tightest; staff roles do bulk work.
 */
const ROLE_DEFAULTS: Record<Role, KeyLimits> = {
  reader: { rateLimit: 60, dailyQuota: 5_000, concurrencyLimit: 4 },
  student: { rateLimit: 120, dailyQuota: 10_000, concurrencyLimit: 4 },
  bursar: { rateLimit: 600, dailyQuota: 100_000, concurrencyLimit: 8 },
  clinician: { rateLimit: 600, dailyQuota: 100_000, concurrencyLimit: 8 },
  admin: { rateLimit: 600, dailyQuota: 100_000, concurrencyLimit: 8 },
};

const VARIABLE_STEM = { rateLimit: 'RATE_LIMIT', dailyQuota: 'DAILY_QUOTA', concurrencyLimit: 'CONCURRENCY_LIMIT' } as const;
type LimitVariable = `${(typeof VARIABLE_STEM)[LimitName]}_${Uppercase<Role>}`;

/** The environment variable of one role's limit, e.g. RATE_LIMIT_READER. */
export const limitVariable = (limit: LimitName, role: Role) => `${VARIABLE_STEM[limit]}_${role.toUpperCase()}` as LimitVariable;

/** What the README's configuration table says of each limit's variables, one row for all roles (`row`). */
const VARIABLE_DESCRIPTION: Record<LimitName, string> = {
  rateLimit:
    "requests a minute for each key of that role without its own limit (`RATE_LIMIT_READER`, …, one per role); an admin can set one key's ([docs/IDENTITY.md](docs/IDENTITY.md#limits-per-key))",
  dailyQuota: 'requests a UTC day for each key of that role',
  concurrencyLimit: 'calls to the services in progress at once for each key of that role, per gateway instance; more → `429` at once',
};

/** The gateway's configuration fields for every role's limits, made from ROLES. */
export const keyLimitFields = () =>
  Object.fromEntries(
    ROLES.flatMap((role) =>
      LIMIT_NAMES.map((limit) => [
        limitVariable(limit, role),
        env
          .int(ROLE_DEFAULTS[role][limit], 1, LIMIT_MAX[limit])
          .meta({ description: VARIABLE_DESCRIPTION[limit], row: `${VARIABLE_STEM[limit]}_<ROLE>`, label: role }),
      ]),
    ),
  ) as Record<LimitVariable, ReturnType<typeof env.int>>;

export type RoleLimits = Record<Role, KeyLimits>;

/** Each role's limits as configured. */
export function roleLimitsFrom(config: Record<LimitVariable, number>): RoleLimits {
  const limitsOf = (role: Role): KeyLimits => ({
    rateLimit: config[limitVariable('rateLimit', role)],
    dailyQuota: config[limitVariable('dailyQuota', role)],
    concurrencyLimit: config[limitVariable('concurrencyLimit', role)],
  });
  return Object.fromEntries(ROLES.map((role) => [role, limitsOf(role)])) as RoleLimits;
}

/** A key's limits: those an admin set for it, its role's for the rest. */
export const effectiveLimits = (roleLimits: KeyLimits, custom: CustomLimits): KeyLimits => ({
  rateLimit: custom.rateLimit ?? roleLimits.rateLimit,
  dailyQuota: custom.dailyQuota ?? roleLimits.dailyQuota,
  concurrencyLimit: custom.concurrencyLimit ?? roleLimits.concurrencyLimit,
});
