import { status } from '@grpc/grpc-js';
import { RpcError } from './errors';
import type { Actor } from './actor-signature';
import type { CallContext } from './handler';

/**
 * The gateway authorises routes too; services check again, from the signed
 * actor, so a caller that reaches a service directly cannot skip the rule.
 */
export function requireRole(context: CallContext, roles: readonly string[]): Actor {
  const actor = context.actor;
  if (!actor) throw new RpcError(status.UNAUTHENTICATED, 'the call carries no valid actor');
  if (!roles.includes(actor.role)) {
    throw new RpcError(status.PERMISSION_DENIED, `role ${actor.role} may not do this; allowed: ${roles.join(', ')}`);
  }
  return actor;
}
