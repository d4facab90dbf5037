import nx from '@nx/eslint-plugin';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Role literals (CONTRIBUTING.md, "Adding a role"), written here rather than imported: Nx re-lints every project
// when this file changes, and would not notice a change to a file it imports.
const ROOT = dirname(fileURLToPath(import.meta.url));
const ACCESS = 'libs/contracts/src/api/access.ts';

/** The roles as libs/contracts declares them, read from there so that this rule never lists them a second time. */
function declaredRoles() {
  const declaration = /export const ROLES = \[([^\]]*)\]/.exec(readFileSync(join(ROOT, ACCESS), 'utf8'));
  if (!declaration) throw new Error(`eslint: no \`export const ROLES = [...]\` in ${ACCESS}`);
  return [...declaration[1].matchAll(/'([^']+)'/g)].map((match) => match[1]);
}

const role = `/^(${declaredRoles().join('|')})$/`;
// Something that holds a role: `role`, `actor.role`, `userRole`.
const holder = '/^(role|\\w+Role)$/';
const roleLiteral = `Literal[value=${role}]`;
// A table over every role (`{ …one entry per role… } satisfies Record<Role, …>`, or typed `: Record<Role, …>`): the
// type check refuses it until a new role has its entry, so it cannot give that role a default by omission.
const overRoles = (type) => `[${type}.typeName.name='Record'][${type}.typeArguments.params.0.typeName.name='Role']`;
const everyRoleTable = [
  `TSSatisfiesExpression${overRoles('typeAnnotation')} > ObjectExpression`,
  `TSSatisfiesExpression${overRoles('typeAnnotation')} > TSAsExpression > ObjectExpression`,
  `VariableDeclarator${overRoles('id.typeAnnotation.typeAnnotation')} > ObjectExpression`,
].join(', ');
/**
 * An object keyed by roles alone that is not such a table (`{ bursar: 'all' }`). One with a key of another kind is
 * keyed by something else (an entity table's 'student'); and only an entry written out is a table's, not one
 * computed (`{ student: await read(…) }`, the field of a gRPC answer).
 */
const roleTable = `ObjectExpression:not(${everyRoleTable}):not(:has(> Property:not([key.name=${role}]):not([key.value=${role}])))`;
const writtenOut = '[value.type=/^(Literal|TemplateLiteral|ObjectExpression|ArrayExpression|ArrowFunctionExpression|FunctionExpression|TSAsExpression)$/]';

/**
 * Where a string is a role: compared with, assigned to, defaulted for or switched on a role holder; the role of an
 * object; bound to a name (`const ADMIN = 'admin'`); a key of an object that is not a table over every role
 * (`{ bursar: 'all' }`); in an array or Set searched (`['admin'].includes(r)`); a second role in a list of roles or
 * in a union type; an argument of a call. The same words elsewhere ('student' as an audited entity, a scope or a
 * refusal reason) are not roles.
 */
const ROLE_CONTEXTS = [
  `BinaryExpression:matches([left.name=${holder}], [left.property.name=${holder}], [right.name=${holder}], [right.property.name=${holder}]) > ${roleLiteral}`,
  `:matches(Property[key.name=${holder}], Property[key.value=${holder}]) > ${roleLiteral}.value`,
  `:matches(AssignmentPattern[left.name=${holder}], AssignmentExpression[left.name=${holder}], AssignmentExpression[left.property.name=${holder}]) > ${roleLiteral}`,
  `:matches(VariableDeclarator, PropertyDefinition) > ${roleLiteral}`,
  `:matches(VariableDeclarator, PropertyDefinition) > :matches(TSAsExpression, TSSatisfiesExpression) > ${roleLiteral}.expression`,
  `${roleTable} > Property[shorthand=false]${writtenOut} > :matches(Identifier[name=${role}], ${roleLiteral}).key`,
  `SwitchStatement:matches([discriminant.name=${holder}], [discriminant.property.name=${holder}]) > SwitchCase > ${roleLiteral}`,
  `CallExpression:matches([arguments.0.name=${holder}], [arguments.0.property.name=${holder}]) > MemberExpression > ArrayExpression > ${roleLiteral}`,
  `MemberExpression[property.name=/^(includes|indexOf|lastIndexOf)$/] > ArrayExpression > ${roleLiteral}`,
  `MemberExpression[property.name='has'] > NewExpression > ArrayExpression > ${roleLiteral}`,
  `ArrayExpression > ${roleLiteral} ~ ${roleLiteral}`,
  `:matches(TSPropertySignature[key.name=${holder}], Identifier[name=${holder}]) TSLiteralType > ${roleLiteral}`,
  `TSUnionType > TSLiteralType[literal.value=${role}] ~ TSLiteralType > ${roleLiteral}`,
  // A role handed to a function (`createUser(…, 'admin')`); `notFound('student')` names an entity, not a role.
  `:matches(CallExpression, NewExpression):not([callee.name='notFound']) > ${roleLiteral}.arguments`,
];

const MESSAGE =
  'A role literal outside the access tables: grant permissions in libs/contracts/src/api/access.ts, give a role its ' +
  "reach in the service's src/access.ts, and check with requirePermission (CONTRIBUTING.md, \"Adding a role\").";

/**
 * Roles drive behaviour only from the access tables, each named by its path: the role list and permission table in
 * libs/contracts, and the reach table of each service that narrows records by role. Migrations keep the roles of
 * their day. Tests (specs, their test-*.ts fixtures and the e2e project) are exempt: a test names the role it acts
 * as, and expected access written out apart from the table is what lets a test fail when the table is wrong.
 * basePath: every project's config extends this one, and these patterns are paths from the repository's root
 * whichever project is linted. tools/lint/role-literals.spec.ts pins what the rule catches.
 */
const ROLE_TABLES = [ACCESS, 'apps/finance/src/access.ts', 'apps/scheduling/src/access.ts', 'apps/notifications/src/access.ts'];

const roleLiterals = {
  basePath: ROOT,
  files: ['**/*.ts', '**/*.js', '**/*.mjs'],
  ignores: [...ROLE_TABLES, 'apps/*/src/migrations/**', 'libs/*/src/migrations/**', '**/*.spec.ts', '**/test-*.ts', 'apps/e2e/**'],
  rules: {
    // One selector, so that a literal in two contexts is reported once.
    'no-restricted-syntax': ['error', { selector: ROLE_CONTEXTS.join(', '), message: MESSAGE }],
  },
};

// The module-boundary rule makes the architecture's arrows real (docs/decisions/0001):
// apps and tools import libs, libs import only libs, and no app imports another app.
export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/generated/**', 'tmp/**'] },
  {
    files: ['**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  roleLiterals,
];
