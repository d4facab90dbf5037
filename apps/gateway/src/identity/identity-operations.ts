import { z } from 'zod';
import { IDENTITY_LIMITS, PUBLIC_BODY_LIMIT_BYTES } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { queryInteger, queryOf } from '../platform/routing/query-fields';
import { json, noContent, problem, locationHeader, unauthorized } from '../platform/routing/responses';
import { TOKEN_LIFETIME_MINUTES } from './account-tokens';
import * as schemas from './schemas';

/** Accounts, sign-in and API keys (docs/IDENTITY.md). */

const tag = 'Identity';
const { throttleWindowMinutes, loginFailuresPerAccount, loginFailuresPerAddress, registrationsPerAddress, resetRequestsPerAddress, liveKeys, keysCreatedPerDay } =
  IDENTITY_LIMITS;
const byId = (description: string) => z.object({ id: z.uuid({ message: 'must be a UUID' }).meta({ description }) });
/** The user list's `after`: an email as accounts have them (the route lower-cases it, as sign-up does). */
const afterEmail = z.email({ message: 'must be the last email of the previous page' }).max(IDENTITY_LIMITS.emailMaxLength);
const hashing = problem('Too many passwords are being hashed at once; `Retry-After: 1`.');
const tooLarge = problem(`The body is larger than the ${PUBLIC_BODY_LIMIT_BYTES / 1024} KB a public operation reads.`);
const sessionOnly = problem('Made with an API key: only a signed-in session (the dashboard) may do this, so that a leaked key cannot.');
const { verify_email: verifyMinutes, password_reset: resetMinutes } = TOKEN_LIFETIME_MINUTES;

export const register = operation({
  method: 'post',
  path: '/api/v1/auth/register',
  operationId: 'register',
  summary: 'Create an account (role reader), and mail a link that proves the address',
  description:
    'The answer is the same, in the same time, whether the email had no account (it has one now) or had one ' +
    '(it is left unchanged, and its owner gets a mail saying someone tried to register it), so that nobody learns ' +
    `from it which emails have accounts. A new account gets a verification link by mail (good for ${verifyMinutes / 60} hours, once: ` +
    '`POST /api/v1/auth/verify-email`); until it is used the account stays a reader. Sign in with the same email ' +
    'and password and create a key (`POST /api/v1/auth/keys`). One client address may register ' +
    `${registrationsPerAddress} times in ${throttleWindowMinutes} minutes; then 429 with \`Retry-After\`.`,
  tag,
  access: { public: true },
  request: { body: schemas.credentials },
  bodyLimit: 'public',
  responses: {
    '202': json('Accepted: verify the address from the mail, and sign in.', schemas.registrationAccepted),
    '413': tooLarge,
    '429': problem('Too many registrations from this address; `Retry-After` says when to try again.'),
    '503': hashing,
  },
});

export const login = operation({
  method: 'post',
  path: '/api/v1/auth/login',
  operationId: 'login',
  summary: 'Sign in: a session token for the dashboard and the auth endpoints',
  description:
    'A wrong password and an unknown email get the same 401, in the same time. ' +
    `After ${loginFailuresPerAccount} failures for an account (or ${loginFailuresPerAddress} from one address) in ${throttleWindowMinutes} minutes, ` +
    'sign-in answers 429 with `Retry-After`.',
  tag,
  access: { public: true },
  request: { body: schemas.credentials },
  bodyLimit: 'public',
  responses: {
    '200': json('Signed in.', schemas.session),
    '401': unauthorized('The email or password is wrong.'),
    '413': tooLarge,
    '429': problem('Too many failed sign-ins; `Retry-After` says when to try again.'),
    '503': hashing,
  },
});

export const me = operation({
  method: 'get',
  path: '/api/v1/auth/me',
  operationId: 'me',
  summary: 'The signed-in account',
  tag,
  access: { account: 'any' },
  request: {},
  responses: { '200': json('The account.', schemas.user) },
});

export const logout = operation({
  method: 'post',
  path: '/api/v1/auth/logout',
  operationId: 'logout',
  summary: 'End the session',
  tag,
  access: { account: 'any' },
  request: {},
  responses: { '204': noContent('Signed out.') },
});

export const verifyEmail = operation({
  method: 'post',
  path: '/api/v1/auth/verify-email',
  operationId: 'verifyEmail',
  summary: 'Prove the address with the token of the mailed link',
  description: `The token is good once, for ${verifyMinutes / 60} hours after registration. An unknown, used or expired token is a 400 naming \`token\` and changes nothing.`,
  tag,
  access: { public: true },
  request: { body: schemas.verifyEmailBody },
  bodyLimit: 'public',
  responses: { '204': noContent('The address is proved.'), '413': tooLarge },
});

export const requestPasswordReset = operation({
  method: 'post',
  path: '/api/v1/auth/password-reset',
  operationId: 'requestPasswordReset',
  summary: 'Mail a password reset link',
  description:
    'The answer is the same, in the same time, whether or not the email has an account, so that nobody learns ' +
    `from it which emails do; an account gets a link good once, for ${resetMinutes} minutes (\`POST /api/v1/auth/password-reset/confirm\`). ` +
    `One client address may ask ${resetRequestsPerAddress} times in ${throttleWindowMinutes} minutes; then 429 with \`Retry-After\`.`,
  tag,
  access: { public: true },
  request: { body: schemas.resetRequestBody },
  bodyLimit: 'public',
  responses: {
    '202': json('Accepted: if the email has an account, its owner gets a link.', schemas.resetAccepted),
    '413': tooLarge,
    '429': problem('Too many reset requests from this address; `Retry-After` says when to try again.'),
  },
});

export const confirmPasswordReset = operation({
  method: 'post',
  path: '/api/v1/auth/password-reset/confirm',
  operationId: 'confirmPasswordReset',
  summary: 'Set a new password with the token of the mailed link; every session ends',
  description:
    'Proves the address too (a mail reached its owner). On an account whose address was not proved before, its ' +
    'API keys are revoked as well: whoever made them never showed they own the address. An unknown, used or ' +
    'expired token is a 400 naming `token` and changes nothing.',
  tag,
  access: { public: true },
  request: { body: schemas.resetConfirmBody },
  bodyLimit: 'public',
  responses: { '204': noContent('The password is set; sign in with it.'), '413': tooLarge, '503': hashing },
});

export const changePassword = operation({
  method: 'post',
  path: '/api/v1/auth/password',
  operationId: 'changePassword',
  summary: 'Change your password; your other sessions end',
  description: `Signed-in sessions only. A wrong \`current\` password is a 403 and counts as a failed sign-in (${loginFailuresPerAccount} in ${throttleWindowMinutes} minutes, then 429).`,
  tag,
  access: { account: 'any' },
  request: { body: schemas.passwordChangeBody },
  responses: {
    '204': noContent('Changed; this session stays, every other one ended.'),
    '403': problem('Made with an API key, or the current password is wrong.'),
    '429': problem('Too many failed attempts; `Retry-After` says when to try again.'),
    '503': hashing,
  },
});

export const revokeAllSessions = operation({
  method: 'post',
  path: '/api/v1/auth/sessions/revoke-all',
  operationId: 'revokeAllSessions',
  summary: 'Sign out everywhere: every session of your account ends, this one too',
  description: 'Signed-in sessions only. API keys are not sessions: revoke them one by one.',
  tag,
  access: { account: 'any' },
  request: {},
  responses: { '204': noContent('Every session ended.'), '403': sessionOnly },
});

export const listKeys = operation({
  method: 'get',
  path: '/api/v1/auth/keys',
  operationId: 'listKeys',
  summary: 'Your live API keys, with their use and limits',
  tag,
  access: { account: 'any' },
  request: {},
  responses: { '200': json('Newest first.', schemas.keyList) },
});

export const createKey = operation({
  method: 'post',
  path: '/api/v1/auth/keys',
  operationId: 'createKey',
  summary: 'Create an API key, shown once',
  description:
    `Signed-in sessions only: a key cannot make keys, so revoking a leaked key ends the leak. An account may create ${keysCreatedPerDay} ` +
    'keys in any 24 hours, revoked ones included; then 429 with `Retry-After`.',
  tag,
  access: { account: 'any' },
  request: { body: schemas.newKeyBody },
  responses: {
    '201': json('The new key; `Location` names it.', schemas.newKey, locationHeader),
    '403': sessionOnly,
    '409': problem(`The account holds the most live keys it may (${liveKeys}); revoke one first.`),
  },
});

export const revokeKey = operation({
  method: 'delete',
  path: '/api/v1/auth/keys/{id}',
  operationId: 'revokeKey',
  summary: 'Revoke one of your keys',
  description: 'Signed-in sessions only. Every gateway instance refuses the key within 5 s (at once, by PostgreSQL NOTIFY).',
  tag,
  access: { account: 'any' },
  request: { path: byId('Key id.') },
  responses: { '204': noContent('Revoked.'), '403': sessionOnly, '404': problem('You have no key with this id.') },
});

export const setKeyLimits = operation({
  method: 'patch',
  path: '/api/v1/auth/keys/{id}',
  operationId: 'setKeyLimits',
  summary: "Set one key's limits",
  description:
    "Any user's live key. A number sets the limit for this key alone; `null` gives it its role's default again; limits not named stay as they are. Every gateway instance applies it within milliseconds (PostgreSQL NOTIFY), 5 s at most.",
  tag,
  access: { account: 'users:manage' },
  request: { path: byId("Key id (`GET /api/v1/auth/users/{id}/keys` lists a user's keys)."), body: schemas.limitsBody },
  responses: { '200': json('The key with its limits.', schemas.listedKey), '404': problem('No live key with this id.') },
});

export const listUsers = operation({
  method: 'get',
  path: '/api/v1/auth/users',
  operationId: 'listUsers',
  summary: 'Every account, by email',
  tag,
  access: { account: 'users:manage' },
  request: {
    query: z.object({
      limit: queryInteger(IDENTITY_LIMITS.userPage).meta({ description: 'Page size.' }),
      after: queryOf(afterEmail).optional().meta({ description: 'The `nextAfter` of the previous page.' }),
    }),
  },
  responses: { '200': json('A page of users.', schemas.userPage) },
});

export const setUserRole = operation({
  method: 'patch',
  path: '/api/v1/auth/users/{id}',
  operationId: 'setUserRole',
  summary: "Change a user's role",
  description: "Applies to the user's keys at once, on every gateway instance. An account whose address is not proved stays a reader: another role is a 409.",
  tag,
  access: { account: 'users:manage' },
  request: { path: byId('User id.'), body: schemas.roleBody },
  responses: {
    '200': json('The user with the new role.', schemas.user),
    '404': problem('No such user.'),
    '409': problem('The account has not proved its email address, so it can only be a reader.'),
  },
});

export const listUserKeys = operation({
  method: 'get',
  path: '/api/v1/auth/users/{id}/keys',
  operationId: 'listUserKeys',
  summary: "A user's live keys, with their use and limits",
  tag,
  access: { account: 'users:manage' },
  request: { path: byId('User id.') },
  responses: { '200': json('Newest first.', schemas.keyList), '404': problem('No such user.') },
});
