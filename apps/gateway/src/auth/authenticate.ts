import type { RequestHandler, Response } from 'express';
import type { Sequelize } from 'sequelize';
import { HttpProblem } from '@libs/http-problems';
import { looksLikeApiKey } from './api-key';
import { findKeyOwner, type KeyOwner } from './key-store';
import { isGranted, type Permission } from './permissions';

const unauthorized = (detail: string) =>
  new HttpProblem(401, detail, { headers: { 'WWW-Authenticate': 'Bearer realm="api"' } });

export const ownerOf = (res: Response): KeyOwner => res.locals.owner as KeyOwner;

/** Resolves `Authorization: Bearer <key>` to its owner and checks the route's permission. */
export function requireKey(sequelize: Sequelize, permission: Permission): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer +(\S+)$/i.exec(header);
    if (!match) throw unauthorized('send an API key as "Authorization: Bearer <key>"');
    const owner = looksLikeApiKey(match[1]) ? await findKeyOwner(sequelize, match[1]) : undefined;
    if (!owner) throw unauthorized('the API key is unknown or revoked');
    if (!isGranted(owner.role, permission)) {
      throw new HttpProblem(403, `the ${owner.role} role does not have the ${permission} permission`);
    }
    res.locals.owner = owner;
    next();
  };
}
