import type { Request, RequestHandler, Response } from 'express';
import type { Sequelize } from 'sequelize';
import { HttpProblem } from '@libs/http-problems';
import type { KeyOwner } from './key-store';
import { keyVerifierOf } from './key-verifier';
import { isGranted, type Permission, type Role } from './permissions';
import { findSessionOwner, looksLikeSessionToken } from './session-store';

export const unauthorized = (detail: string) =>
  new HttpProblem(401, detail, { headers: { 'WWW-Authenticate': 'Bearer realm="api"' } });

const forbidden = (role: Role, permission: Permission) =>
  new HttpProblem(403, `the ${role} role does not have the ${permission} permission`);

function bearerToken(req: Request, expected: string): string {
  const match = /^Bearer +(\S+)$/i.exec(req.get('authorization') ?? '');
  if (!match) throw unauthorized(`send ${expected} as "Authorization: Bearer <token>"`);
  return match[1];
}

export const ownerOf = (res: Response): KeyOwner => res.locals.owner as KeyOwner;

/** Resolves `Authorization: Bearer <API key>` to its owner and checks the route's permission. */
export function requireKey(sequelize: Sequelize, permission: Permission): RequestHandler {
  return async (req, res, next) => {
    const owner = await keyVerifierOf(sequelize).verify(bearerToken(req, 'an API key'));
    if (!owner) throw unauthorized('the API key is unknown or revoked');
    await keyVerifierOf(sequelize).limiter.admit(owner, res); // rate and daily quota, or 429
    if (!isGranted(owner.role, permission)) throw forbidden(owner.role, permission);
    res.locals.owner = owner;
    next();
  };
}

/** Who manages an account: signed in on the dashboard, or holding one of the account's API keys. */
export interface Account {
  userId: string;
  role: Role;
  /** Set when the caller signed in; the token is needed to sign out. */
  sessionToken?: string;
}

export const accountOf = (res: Response): Account => res.locals.account as Account;

/**
 * For the account endpoints (/api/v1/auth/*): a dashboard session token or an
 * API key. Data endpoints take API keys only (requireKey).
 */
export function requireAccount(sequelize: Sequelize, permission?: Permission): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req, 'a session token or an API key');
    let account: Account | undefined;
    if (looksLikeSessionToken(token)) {
      const owner = await findSessionOwner(sequelize, token);
      if (!owner) throw unauthorized('the session has ended or is unknown; sign in again');
      account = { userId: owner.userId, role: owner.role, sessionToken: token };
    } else {
      const owner = await keyVerifierOf(sequelize).verify(token);
      if (!owner) throw unauthorized('the API key is unknown or revoked');
      await keyVerifierOf(sequelize).limiter.admit(owner, res); // rate and daily quota, or 429
      account = { userId: owner.userId, role: owner.role };
    }
    if (permission && !isGranted(account.role, permission)) throw forbidden(account.role, permission);
    res.locals.account = account;
    next();
  };
}
