import type { Request, Response } from 'express';
import type { Permission, Role } from '@libs/contracts';

/**
 * Who may call an operation: anyone; any signed-in account (a dashboard
 * session or an API key), optionally with a permission; or an API key with
 * the permission. `keyIfGiven`: anyone, but an Authorization header must be a
 * key with the permission (for probes that admins may ask more of).
 */
export type Access =
  | { public: true }
  | { key: Permission }
  | { account: Permission | 'any' }
  | { keyIfGiven: Permission };

/** The verified API key a request carried, as far as routing and the upstreams need it: whose user acts. */
export interface CallerKey {
  userId: string;
  role: Role;
}

/** Who manages an account: signed in on the dashboard, or holding one of the account's API keys. */
export interface Account {
  userId: string;
  role: Role;
  /** Set when the caller signed in; the token is needed to sign out. */
  sessionToken?: string;
}

/** Who made a request, as its operation's access rule established. */
export interface Caller<K extends CallerKey = CallerKey> {
  /** The API key the request carried, once verified and admitted under the key's limits. */
  key?: K;
  /** For account operations: the signed-in account, by session token or API key. */
  account?: Account;
}

/**
 * Applies the access rules of the operations: the app passes one in (identity/access-guard.ts), so that
 * routing knows nothing of how keys, sessions and their limits are kept.
 */
export interface AccessCheck<K extends CallerKey> {
  /** Who the request comes from under the rule; a 401, 403 or 429 problem when the rule refuses it. */
  check(access: Access, req: Request, res: Response): Promise<Caller<K>>;
  /**
   * Takes one of the key's places for one call to a service (its concurrency limit), or refuses with a 429;
   * the function returned gives the place back. Without a key there is no limit.
   */
  enterCall(key: K | undefined): Promise<() => void>;
}
