export const ROLES = ['reader', 'student', 'bursar', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Who may do what (DESIGN.md §4). Routes name a permission; this table is the only place roles appear. */
const GRANTS = {
  'reference:read': ['reader', 'student', 'bursar', 'admin'],
  // Finance reads: a student's are narrowed to their own records by the finance service.
  'finance:read': ['student', 'bursar', 'admin'],
  // Accounts, categories and registration numbers.
  'finance:records:read': ['bursar', 'admin'],
  'finance:write': ['bursar', 'admin'],
  'finance:delete': ['admin'],
  'payments:submit': ['student', 'bursar', 'admin'],
  'audit:read': ['admin'],
  'audit:replay': ['admin'],
  'users:manage': ['admin'],
  // /readyz's checks and breakers: they name internal addresses.
  'health:details': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof GRANTS;

export const isGranted = (role: Role, permission: Permission): boolean =>
  (GRANTS[permission] as readonly Role[]).includes(role);

export const grantedRoles = (permission: Permission): readonly Role[] => GRANTS[permission];
