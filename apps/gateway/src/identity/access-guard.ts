import type { Request, Response } from 'express';
import type { Sequelize } from 'sequelize';
import { grantedRoles, isGranted, type Permission, type Role } from '@libs/contracts';
import { GATEWAY_ACTOR } from '@libs/grpc';
import { HttpProblem } from '@libs/http-problems';
import { unauthorized } from '../platform/http/unauthorized';
import type { Access, AccessCheck, Account, Caller } from '../platform/routing/access';
import type { ChangeContext } from './identity-events';
import type { KeyOwner } from './key-store';
import type { KeyVerifier } from './key-verifier';
import { findSessionOwner, looksLikeSessionToken } from './session-store';

/** Names the roles that would do, so that a new sign-up (a reader) learns why and whom to ask. */
const forbidden = (role: Role, permission: Permission) =>
  new HttpProblem(
    403,
    `the ${role} role does not have the ${permission} permission; it needs the role ${grantedRoles(permission).join(' or ')}, which an admin grants`,
  );

function bearerToken(req: Request, expected: string): string {
  const match = /^Bearer +(\S+)$/i.exec(req.get('authorization') ?? '');
  if (!match) throw unauthorized(`send ${expected} as "Authorization: Bearer <token>"`);
  return match[1];
}

/** The change a signed-in account makes, as identity.events name it: this request, this account acting. */
export const changeBy = (res: Response, account: Account): ChangeContext => ({
  requestId: res.locals.requestId as string,
  actor: { userId: account.userId, role: account.role },
});

/** A change the gateway makes for an anonymous request (a registration, a mailed link used). */
export const changeByGateway = (res: Response): ChangeContext => ({ requestId: res.locals.requestId as string, actor: GATEWAY_ACTOR });

/**
 * Refuses an account operation made with an API key where only a signed-in session will do: making or revoking
 * keys and changing sign-in itself, so that a leaked key cannot make keys of its own or lock the owner out.
 */
export function requireSession(account: Account, what: string): string {
  if (!account.sessionToken) {
    throw new HttpProblem(403, `only a signed-in session (the dashboard) may ${what}: an API key cannot, so that revoking a leaked key ends the leak`);
  }
  return account.sessionToken;
}

/** The account an account operation's access rule established. */
export function signedIn(account: Account | undefined): Account {
  if (!account) throw new Error('an account operation ran without its access rule');
  return account;
}

/**
 * Applies an operation's access rule (platform/routing/access.ts) to a
 * request: verifies its API key or session token, admits it under the key's
 * rate limit and daily quota (or 429), and checks the permission against the
 * table in @libs/contracts; then holds each call made for it to the key's
 * concurrency limit. The key verifier is passed in at start.
 */
export class AccessGuard implements AccessCheck<KeyOwner> {
  constructor(
    private readonly sequelize: Sequelize,
    private readonly keys: KeyVerifier,
  ) {}

  async check(access: Access, req: Request, res: Response): Promise<Caller<KeyOwner>> {
    if ('public' in access) return {};
    if ('keyIfGiven' in access) {
      return req.get('authorization') === undefined ? {} : { key: await this.key(req, res, access.keyIfGiven) };
    }
    if ('key' in access) return { key: await this.key(req, res, access.key) };
    return { account: await this.account(req, res, access.account) };
  }

  enterCall(key: KeyOwner | undefined): Promise<() => void> {
    return this.keys.limiter.enter(key);
  }

  /** Resolves `Authorization: Bearer <API key>` to its owner and checks the permission. */
  private async key(req: Request, res: Response, permission: Permission): Promise<KeyOwner> {
    const owner = await this.admittedKey(bearerToken(req, 'an API key'), res);
    if (!isGranted(owner.role, permission)) throw forbidden(owner.role, permission);
    return owner;
  }

  /** A dashboard session token or an API key: the account endpoints (/api/v1/auth/*) take either. */
  private async account(req: Request, res: Response, permission: Permission | 'any'): Promise<Account> {
    const token = bearerToken(req, 'a session token or an API key');
    let account: Account;
    if (looksLikeSessionToken(token)) {
      const owner = await findSessionOwner(this.sequelize, token);
      if (!owner) throw unauthorized('the session has ended or is unknown; sign in again');
      account = { userId: owner.userId, role: owner.role, sessionToken: token };
    } else {
      const owner = await this.admittedKey(token, res);
      account = { userId: owner.userId, role: owner.role };
    }
    if (permission !== 'any' && !isGranted(account.role, permission)) throw forbidden(account.role, permission);
    return account;
  }

  private async admittedKey(token: string, res: Response): Promise<KeyOwner> {
    const owner = await this.keys.verify(token);
    if (!owner) throw unauthorized('the API key is unknown or revoked');
    await this.keys.limiter.admit(owner, res); // rate and daily quota, or 429
    return owner;
  }
}
