import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The role rule (eslint.config.mjs, CONTRIBUTING.md "Adding a role"), run as `npm run lint` runs it, on code it must
 * refuse and code it must let through, so that it cannot weaken without a test failing.
 */

const ROOT = join(__dirname, '../..');
const RULE_MESSAGE = 'A role literal outside the access tables';

interface Case {
  code: string;
  /** Where the code is linted from: the rule's exemptions are paths from the repository's root. */
  file: string;
}

// ESLint loads its configuration as an ES module, which Jest's module system cannot: the cases are linted in one
// Node process of their own, through ESLint's API as the repository's configuration sets it up.
const LINT = `
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
const eslint = new ESLint({ cwd: process.cwd() });
const results = [];
for (const { code, filePath } of JSON.parse(readFileSync(0, 'utf8'))) {
  const [result] = await eslint.lintText(code, { filePath });
  results.push(result.messages.map(({ message, fatal }) => ({ message, fatal: fatal === true })));
}
process.stdout.write(JSON.stringify(results));
`;

type Messages = { message: string; fatal: boolean }[];

function lint(cases: Case[]): Messages[] {
  const input = JSON.stringify(cases.map(({ code, file }) => ({ code, filePath: join(ROOT, file) })));
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', LINT], { cwd: ROOT, input, encoding: 'utf8' }));
}

const SERVICE_FILE = 'apps/finance/src/records/role-case.ts';
const ROLE_TYPE = "import type { Role } from '@libs/contracts';\n";

/** Each refused where roles may not drive behaviour. */
const REFUSED: Record<string, Case> = {
  'a comparison with a role holder': { code: "export const f = (actor: { role: string }) => actor.role === 'bursar';", file: SERVICE_FILE },
  'a role handed to a function': { code: "declare function g(role: string): void;\ng('admin');", file: SERVICE_FILE },
  'a list of roles': { code: "export const staff = new Set(['admin', 'bursar']);", file: SERVICE_FILE },
  'a single-role array searched': { code: "export const f = (r: string) => ['admin'].includes(r);", file: SERVICE_FILE },
  'a single-role Set searched': { code: "export const f = (r: string) => new Set(['clinician']).has(r);", file: SERVICE_FILE },
  'a role bound to a name, then compared': {
    code: "const ADMIN = 'admin';\nexport const f = (role: string) => role === ADMIN;",
    file: SERVICE_FILE,
  },
  'a role bound to a name as const': { code: "export const BURSAR = 'bursar' as const;", file: SERVICE_FILE },
  'a role-keyed table outside the access tables': { code: "export const REACH = { bursar: 'all' };", file: SERVICE_FILE },
  'a partial role-keyed table, typed': {
    code: `${ROLE_TYPE}export const REACH = { student: 'own' } as const satisfies Partial<Record<Role, string>>;`,
    file: SERVICE_FILE,
  },
  'a role-keyed table with quoted keys': { code: "export const LIMITS = { 'admin': { rate: 600 } };", file: SERVICE_FILE },
  'a switch on a role': {
    code: "export function f(role: string) {\n  switch (role) {\n    case 'clinician':\n      return 1;\n  }\n  return 0;\n}",
    file: SERVICE_FILE,
  },
  'a union of roles': { code: "export type Staff = 'clinician' | 'admin';", file: SERVICE_FILE },
  // Only the access tables named by path are exempt, not every file of that name.
  "another file named access.ts (the gateway's routing)": {
    code: "export const f = (actor: { role: string }) => actor.role === 'admin';",
    file: 'apps/gateway/src/platform/routing/access.ts',
  },
  'a library': { code: "export const isAdmin = (role: string) => role === 'admin';", file: 'libs/grpc/src/role-case.ts' },
  'a tool': { code: "export const BOOTSTRAP = { role: 'admin' };", file: 'tools/dev/role-case.ts' },
};

/** Each let through: the same words that are not roles, and the places roles belong. */
const ALLOWED: Record<string, Case> = {
  "'student' naming an entity": {
    code: [
      "declare function notFound(what: string): Error;",
      "export const missing = () => notFound('student');",
      "export const event = { entityType: 'student', action: 'student.create' };",
      'export const ENTITIES = { transaction: { schema: 1 }, student: { schema: 2 } };',
      'export const answer = async (read: () => Promise<object>) => ({ student: await read() });',
      'export const student = (s: { student: object }) => { const { student } = s; return { student }; };',
    ].join('\n'),
    file: SERVICE_FILE,
  },
  'a table over every role, which the type check keeps whole': {
    code: [
      ROLE_TYPE,
      "export const IDS = { reader: 'r', student: 's', bursar: 'b', clinician: 'c', admin: 'a' } as const satisfies Record<Role, string>;",
      'export const LIMITS: Record<Role, number> = { reader: 1, student: 2, bursar: 3, clinician: 4, admin: 5 };',
    ].join('\n'),
    file: 'apps/gateway/src/identity/limits/role-case.ts',
  },
  'the permission table': {
    code: "export const ROLES = ['reader', 'student', 'bursar', 'clinician', 'admin'] as const;\nexport const SIGN_UP = 'reader';",
    file: 'libs/contracts/src/api/access.ts',
  },
  "a service's reach table": {
    code: "const REACH = { admin: 'all', student: 'own', clinician: 'staffed' } as const;\nexport const f = (role: string) => role === 'admin' || REACH;",
    file: 'apps/scheduling/src/access.ts',
  },
  'a migration': { code: "export const up = (role: string) => role === 'bursar';", file: 'apps/gateway/src/migrations/0001-role-case.ts' },
  'a spec': { code: "export const f = (actor: { role: string }) => actor.role === 'bursar';", file: 'apps/finance/src/records/role-case.spec.ts' },
  'an end-to-end test': { code: "export const ADMIN = { role: 'admin' };", file: 'apps/e2e/src/role-case.ts' },
};

const refusals = (messages: Messages) => messages.filter(({ message }) => message.startsWith(RULE_MESSAGE));

describe('the role rule', () => {
  const refused = Object.entries(REFUSED);
  const allowed = Object.entries(ALLOWED);
  let results: Messages[];

  beforeAll(() => {
    results = lint([...refused, ...allowed].map(([, lintCase]) => lintCase));
  });

  it.each(refused.map(([name], index) => [name, index] as const))('refuses %s', (_, index) => {
    expect(results[index].filter(({ fatal }) => fatal)).toEqual([]);
    expect(refusals(results[index])).toHaveLength(1);
  });

  it.each(allowed.map(([name], index) => [name, refused.length + index] as const))('lets through %s', (_, index) => {
    // A case that does not parse reports nothing of the rule: it must parse for its silence to mean anything.
    expect(results[index].filter(({ fatal }) => fatal)).toEqual([]);
    expect(refusals(results[index])).toEqual([]);
  });
});
