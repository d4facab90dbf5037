import type { Migration } from '@libs/db';

/**
 * Adds every role the code knows (ROLES) to the roles table that users.role references. It is named after the
 * roles it adds, so the migration runner applies it again, once, whenever ROLES changes: a new role needs no
 * migration of its own. It must stay last in the list, after the table exists. A role dropped from ROLES stays a
 * row (users may still hold it; every permission check refuses a role the table of grants does not know).
 */
export function knownRoles(roles: readonly string[]): Migration {
  return {
    name: `roles:${roles.join(',')}`,
    async up({ context }) {
      await context.sequelize.query('INSERT INTO roles (name) SELECT unnest(ARRAY[:roles]::text[]) ON CONFLICT DO NOTHING', {
        replacements: { roles: [...roles] },
      });
    },
    // Nothing to undo: the rows are what the code knew, and users may hold them.
    down: () => Promise.resolve(),
  };
}
