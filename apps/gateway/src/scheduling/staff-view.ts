import { isGranted } from '@libs/contracts';
import type { Caller } from '../platform/routing/access';

/** Whether the caller is staff, who see who staffs a resource and who acted (docs/SCHEDULING.md, "Roles"). */
export const seesStaff = (caller: Caller): boolean => caller.key !== undefined && isGranted(caller.key.role, 'scheduling:staff-view');
