import { LIMIT_MAX } from '../../auth/key-limits';
import { ROLES } from '../../auth/permissions';
import { json, operation, pathParam, problem, queryParam, ref } from '../builders';

const uuid = { type: 'string', format: 'uuid' };
const dateTime = { type: 'string', format: 'date-time' };
const role = { enum: [...ROLES] };

const limitProperties = {
  rateLimit: { type: 'integer', minimum: 1, maximum: LIMIT_MAX.rateLimit, description: 'Requests per minute, refilled continuously.' },
  dailyQuota: { type: 'integer', minimum: 1, maximum: LIMIT_MAX.dailyQuota, description: 'Requests per UTC day.' },
  concurrencyLimit: {
    type: 'integer',
    minimum: 1,
    maximum: LIMIT_MAX.concurrencyLimit,
    description: 'Calls to the services in progress at once for the key\'s requests, per gateway instance.',
  },
};
const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: ['integer', 'null'] });

export const authSchemas = {
  User: {
    type: 'object',
    required: ['id', 'email', 'role', 'createdAt'],
    properties: { id: uuid, email: { type: 'string', format: 'email' }, role, createdAt: dateTime },
  },
  KeySummary: {
    type: 'object',
    description: 'An API key as its owner sees it later: never the key itself.',
    required: ['id', 'name', 'prefix', 'createdAt', 'lastUsedAt', 'requestCount'],
    properties: {
      id: uuid,
      name: { type: 'string' },
      prefix: { type: 'string', description: 'The visible start of the key, e.g. `cfk_1a2b3c4d`.' },
      createdAt: dateTime,
      lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
      requestCount: { type: 'integer', minimum: 0 },
    },
  },
  KeyLimits: {
    type: 'object',
    additionalProperties: false,
    required: ['rateLimit', 'dailyQuota', 'concurrencyLimit'],
    properties: limitProperties,
  },
  ListedKey: {
    description: "A key as listed: with the limits it is under (its own where an admin set them, its role's otherwise).",
    allOf: [
      { $ref: '#/components/schemas/KeySummary' },
      {
        type: 'object',
        required: ['limits', 'customLimits'],
        properties: {
          limits: ref('KeyLimits'),
          customLimits: {
            type: 'object',
            additionalProperties: false,
            description: 'The limits an admin set for this key; the others are the role defaults.',
            properties: limitProperties,
          },
        },
      },
    ],
  },
  NewKey: {
    description: 'A key as created: the only time `key` is shown.',
    allOf: [
      { $ref: '#/components/schemas/KeySummary' },
      { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: '^cfk_' } } },
    ],
  },
  Credentials: {
    type: 'object',
    additionalProperties: false,
    required: ['email', 'password'],
    properties: {
      email: { type: 'string', format: 'email', maxLength: 254 },
      password: { type: 'string', minLength: 8, maxLength: 128 },
    },
  },
};

const keyList = { type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: ref('ListedKey') } } };

const credentials = { required: true, content: { 'application/json': { schema: ref('Credentials') } } };
const tags = ['Identity'];

export const authPaths = {
  '/api/v1/auth/register': {
    post: operation({
      operationId: 'register',
      summary: 'Create an account (role reader)',
      description:
        'The answer is the same, in the same time, whether the email had no account (it has one now) or had one ' +
        '(it is left unchanged), so that nobody learns from it which emails have accounts. Next, sign in with the ' +
        'same email and password and create a key (`POST /api/v1/auth/keys`). One client address may register 20 ' +
        'times in 15 minutes; then 429 with `Retry-After`.',
      tags,
      permission: null,
      requestBody: credentials,
      responses: {
        '202': json('Accepted: sign in next.', {
          type: 'object',
          additionalProperties: false,
          required: ['status', 'detail'],
          properties: { status: { const: 'accepted' }, detail: { type: 'string' } },
        }),
        '413': problem('The body is larger than the 4 KB a public operation reads.'),
        '429': problem('Too many registrations from this address; `Retry-After` says when to try again.'),
        '503': problem('Too many passwords are being hashed at once; `Retry-After: 1`.'),
      },
    }),
  },
  '/api/v1/auth/login': {
    post: operation({
      operationId: 'login',
      summary: 'Sign in: a session token for the dashboard and the auth endpoints',
      description:
        'A wrong password and an unknown email get the same 401, in the same time. After 5 failures for an account (or 50 from one address) in 15 minutes, sign-in answers 429 with `Retry-After`.',
      tags,
      permission: null,
      requestBody: credentials,
      responses: {
        '200': json('Signed in.', {
          type: 'object',
          required: ['token', 'expiresAt', 'user'],
          properties: { token: { type: 'string', pattern: '^cfs_' }, expiresAt: dateTime, user: ref('User') },
        }),
        '401': problem('The email or password is wrong. Carries `WWW-Authenticate: Bearer`.'),
        '413': problem('The body is larger than the 4 KB a public operation reads.'),
        '429': problem('Too many failed sign-ins; `Retry-After` says when to try again.'),
        '503': problem('Too many passwords are being hashed at once; `Retry-After: 1`.'),
      },
    }),
  },
  '/api/v1/auth/me': {
    get: operation({
      operationId: 'me',
      summary: 'The signed-in account',
      tags,
      permission: 'account',
      responses: { '200': json('The account.', ref('User')) },
    }),
  },
  '/api/v1/auth/logout': {
    post: operation({
      operationId: 'logout',
      summary: 'End the session',
      tags,
      permission: 'account',
      responses: { '204': { description: 'Signed out.' } },
    }),
  },
  '/api/v1/auth/keys': {
    get: operation({
      operationId: 'listKeys',
      summary: 'Your live API keys, with their use and limits',
      tags,
      permission: 'account',
      responses: { '200': json('Newest first.', keyList) },
    }),
    post: operation({
      operationId: 'createKey',
      summary: 'Create an API key, shown once',
      description: 'An account may create 20 keys in any 24 hours, revoked ones included; then 429 with `Retry-After`.',
      tags,
      permission: 'account',
      requestBody: {
        content: {
          'application/json': {
            schema: { type: 'object', additionalProperties: false, properties: { name: { type: 'string', maxLength: 100 } } },
          },
        },
      },
      responses: {
        '201': json('The new key; `Location` names it.', ref('NewKey')),
        '409': problem('The account holds the most live keys it may (20); revoke one first.'),
      },
    }),
  },
  '/api/v1/auth/keys/{id}': {
    delete: operation({
      operationId: 'revokeKey',
      summary: 'Revoke one of your keys',
      description: 'Every gateway instance refuses the key within 5 s (at once, by PostgreSQL NOTIFY).',
      tags,
      permission: 'account',
      parameters: [pathParam('id', 'Key id.', uuid)],
      responses: { '204': { description: 'Revoked.' }, '404': problem('You have no key with this id.') },
    }),
    patch: operation({
      operationId: 'setKeyLimits',
      summary: "Set one key's limits",
      description:
        "Any user's live key. A number sets the limit for this key alone; `null` gives it its role's default again; limits not named stay as they are. Every gateway instance applies it within milliseconds (PostgreSQL NOTIFY), 5 s at most.",
      tags,
      permission: 'users:manage',
      parameters: [pathParam('id', 'Key id (`GET /api/v1/auth/users/{id}/keys` lists a user\'s keys).', uuid)],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              minProperties: 1,
              properties: Object.fromEntries(Object.entries(limitProperties).map(([name, schema]) => [name, nullable(schema)])),
            },
          },
        },
      },
      responses: { '200': json('The key with its limits.', ref('ListedKey')), '404': problem('No live key with this id.') },
    }),
  },
  '/api/v1/auth/users': {
    get: operation({
      operationId: 'listUsers',
      summary: 'Every account, by email',
      tags,
      permission: 'users:manage',
      parameters: [
        queryParam('limit', { type: 'integer', minimum: 1, maximum: 500, default: 100 }, 'Page size.'),
        queryParam('after', { type: 'string', maxLength: 254 }, 'The `nextAfter` of the previous page.'),
      ],
      responses: {
        '200': json('A page of users.', {
          type: 'object',
          required: ['users'],
          properties: { users: { type: 'array', items: ref('User') }, nextAfter: { type: 'string' } },
        }),
      },
    }),
  },
  '/api/v1/auth/users/{id}': {
    patch: operation({
      operationId: 'setUserRole',
      summary: "Change a user's role",
      description: "Applies to the user's keys at once, on every gateway instance.",
      tags,
      permission: 'users:manage',
      parameters: [pathParam('id', 'User id.', uuid)],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', additionalProperties: false, required: ['role'], properties: { role } },
          },
        },
      },
      responses: { '200': json('The user with the new role.', ref('User')), '404': problem('No such user.') },
    }),
  },
  '/api/v1/auth/users/{id}/keys': {
    get: operation({
      operationId: 'listUserKeys',
      summary: "A user's live keys, with their use and limits",
      tags,
      permission: 'users:manage',
      parameters: [pathParam('id', 'User id.', uuid)],
      responses: { '200': json('Newest first.', keyList), '404': problem('No such user.') },
    }),
  },
};
