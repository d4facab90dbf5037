import { GrpcStatus, RpcError, type Actor, type CallContext } from '@libs/grpc';

export type Role = 'reader' | 'student' | 'bursar' | 'admin';

/** The gateway authorises routes too; services check again so an internal caller cannot skip the rule. */
export function requireRole(context: CallContext, ...roles: Role[]): Actor {
  const actor = context.actor;
  if (!actor) throw new RpcError(GrpcStatus.UNAUTHENTICATED, 'the call carries no actor');
  if (!roles.includes(actor.role as Role)) {
    throw new RpcError(GrpcStatus.PERMISSION_DENIED, `role ${actor.role} may not do this; allowed: ${roles.join(', ')}`);
  }
  return actor;
}
