import { status } from '@grpc/grpc-js';
import { grantedRoles, isGranted, type Permission } from '@libs/contracts';
import { RpcError } from './errors';
import type { Actor } from './actor-signature';
import type { CallContext } from './handler';

/**
 * The one way a service checks a permission: the call's signed actor must hold it in the permission table
 * (@libs/contracts), which the gateway checked too; a role the table does not grant it, or does not know, is
 * refused. A caller that reaches a service directly cannot skip the rule.
 */
export function requirePermission(context: CallContext, permission: Permission): Actor {
  const actor = context.actor;
  if (!actor) throw new RpcError(status.UNAUTHENTICATED, 'the call carries no valid actor');
  if (!isGranted(actor.role, permission)) {
    throw new RpcError(status.PERMISSION_DENIED, `role ${actor.role} may not do this; allowed: ${grantedRoles(permission).join(', ')}`);
  }
  return actor;
}
