import { status } from '@grpc/grpc-js';
import { grantedRoles, type Role } from '@libs/contracts';
import { reachIn, requirePermission } from './require-permission';

const actor = (role: string) => ({ userId: 'u-1', role });
const REACH = { student: 'own', admin: 'all' } as const satisfies Partial<Record<Role, 'own' | 'all'>>;

describe('a refusal by role', () => {
  it('lets a granted role through and names the allowed roles to one that is not', () => {
    const [granted] = grantedRoles('audit:read');
    expect(requirePermission({ requestId: 'r', actor: actor(granted) }, 'audit:read')).toEqual(actor(granted));
    expect(() => requirePermission({ requestId: 'r', actor: actor('nurse') }, 'audit:read')).toThrow(
      expect.objectContaining({ code: status.PERMISSION_DENIED, message: `role nurse may not do this; allowed: ${grantedRoles('audit:read').join(', ')}` }),
    );
    expect(() => requirePermission({ requestId: 'r' }, 'audit:read')).toThrow(expect.objectContaining({ code: status.UNAUTHENTICATED }));
  });

  it("gives a listed role its reach and refuses one the table does not list, in the same words", () => {
    expect(reachIn(REACH, actor('student'))).toBe('own');
    expect(() => reachIn(REACH, actor('bursar'))).toThrow(
      expect.objectContaining({ code: status.PERMISSION_DENIED, message: 'role bursar may not do this; allowed: student, admin' }),
    );
    // An inherited property is not a reach.
    expect(() => reachIn(REACH, actor('toString'))).toThrow(expect.objectContaining({ code: status.PERMISSION_DENIED }));
  });
});
