import type { Role } from './api/access';

/**
 * Fixed ids of the local demo users, one per role. The gateway creates the
 * users with these ids and finance seeds the demo student's records against
 * the student's id, so the two services agree without reading each other's
 * database. Used only outside production.
 */
export const DEMO_USER_IDS = {
  reader: '00000000-0000-4000-8000-0000000d0001',
  student: '00000000-0000-4000-8000-0000000d0002',
  bursar: '00000000-0000-4000-8000-0000000d0003',
  admin: '00000000-0000-4000-8000-0000000d0004',
  /** Staffs the demo resources of scheduling (its demo data). */
  clinician: '00000000-0000-4000-8000-0000000d0005',
} as const satisfies Record<Role, string>;
