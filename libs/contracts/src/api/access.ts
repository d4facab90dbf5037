/**
 * Roles and the permission table: who may do what. The gateway checks the
 * permission a route declares; each service checks the same rows again from
 * the signed actor, so a caller that reaches a gRPC port directly cannot skip
 * them. This module is the only place roles are listed (docs/IDENTITY.md).
 */
export const ROLES = ['reader', 'student', 'bursar', 'clinician', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The role a self-registered account gets: it reads reference data until an admin grants it more. */
export const SIGN_UP_ROLE: Role = 'reader';
/** The role of the account made from BOOTSTRAP_ADMIN_EMAIL, the system's first admin. */
export const BOOTSTRAP_ROLE: Role = 'admin';

const GRANTS = {
  'reference:read': ['reader', 'student', 'bursar', 'clinician', 'admin'],
  // Finance reads: a student's are narrowed to their own records by the finance service.
  'finance:read': ['student', 'bursar', 'admin'],
  // Accounts, categories and registration numbers.
  'finance:records:read': ['bursar', 'admin'],
  'finance:write': ['bursar', 'admin'],
  'finance:delete': ['admin'],
  'payments:submit': ['student', 'bursar', 'admin'],
  // Scheduling (docs/SCHEDULING.md, "Roles"): locations, resources, services, schedules and free slots.
  'scheduling:browse': ['reader', 'student', 'bursar', 'clinician', 'admin'],
  'scheduling:configure': ['admin'],
  // Blocks: a clinician's only on the resources they staff (the scheduling service checks staffing).
  'scheduling:block': ['clinician', 'admin'],
  // Why time is not free (slot search with explain=true).
  'scheduling:explain': ['clinician', 'admin'],
  // Staff's view: who staffs a resource and who acted (a block's creator), and booking on a student's behalf.
  'scheduling:staff-view': ['clinician', 'admin'],
  // Hold, book, confirm, release, reschedule, cancel: a student their own, a clinician on staffed resources.
  'appointments:book': ['student', 'clinician', 'admin'],
  'appointments:read': ['student', 'clinician', 'admin'],
  // Check-in, complete, no-show and its revert.
  'appointments:attend': ['clinician', 'admin'],
  'appointments:entered-in-error': ['admin'],
  'audit:read': ['admin'],
  'audit:replay': ['admin'],
  'users:manage': ['admin'],
  // Webhook endpoints: anyone may own some; what each receives is narrowed by the notifications service's reach.
  'webhooks:manage': ['reader', 'student', 'bursar', 'clinician', 'admin'],
  // One's own mail preferences (which categories of mail one receives).
  'mail:preferences': ['reader', 'student', 'bursar', 'clinician', 'admin'],
  // Another user's endpoints and deliveries.
  'webhooks:any-owner': ['admin'],
  // /readyz's checks and breakers: they name internal addresses.
  'health:details': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof GRANTS;

export const isGranted = (role: string, permission: Permission): boolean =>
  (GRANTS[permission] as readonly string[]).includes(role);

export const grantedRoles = (permission: Permission): readonly Role[] => GRANTS[permission];

const LIST = new Intl.ListFormat('en-GB', { type: 'conjunction' });

/** The roles granted a permission in prose ("clinicians and admins"), for refusals and the document. */
export const grantedRolesInProse = (permission: Permission): string => LIST.format(grantedRoles(permission).map((role) => `${role}s`));
