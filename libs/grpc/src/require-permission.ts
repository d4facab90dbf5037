import { status } from '@grpc/grpc-js';
import { grantedRoles, isGranted, type Permission, type Role } from '@libs/contracts';
import { RpcError } from './errors';
import { GATEWAY_ACTOR, type Actor } from './actor-token';
import type { CallContext } from './handler';

/** The one wording of a refusal by role: the caller's role, and the roles that may. */
const refusal = (role: string, allowed: readonly string[]) =>
  new RpcError(status.PERMISSION_DENIED, `role ${role} may not do this; allowed: ${allowed.join(', ')}`);

/**
 * The one way a service checks a permission: the call's signed actor must hold it in the permission table
 * (@libs/contracts), which the gateway checked too; a role the table does not grant it, or does not know, is
 * refused. A caller that reaches a service directly cannot skip the rule.
 */
export function requirePermission(context: CallContext, permission: Permission): Actor {
  const actor = context.actor;
  if (!actor) throw new RpcError(status.UNAUTHENTICATED, 'the call carries no valid actor');
  if (!isGranted(actor.role, permission)) throw refusal(actor.role, grantedRoles(permission));
  return actor;
}

/**
 * What the actor's role reaches in a service once a permission has let it in: its row of the service's `REACH`
 * table (src/access.ts: all records, its own, the resources it staffs). A role the table does not list reaches
 * nothing and is refused, whatever it was granted: a new role gets a reach on purpose, never by default.
 */
export function reachIn<Reach extends string>(table: Partial<Record<Role, Reach>>, actor: Actor): Reach {
  const reach = Object.hasOwn(table, actor.role) ? table[actor.role as Role] : undefined;
  if (reach === undefined) throw refusal(actor.role, Object.keys(table));
  return reach;
}

/** The one check of a call only the gateway makes for itself (GATEWAY_ACTOR): no user's role passes it. */
export function requireGateway(context: CallContext): Actor {
  const actor = context.actor;
  if (!actor) throw new RpcError(status.UNAUTHENTICATED, 'the call carries no valid actor');
  if (actor.userId !== GATEWAY_ACTOR.userId || actor.role !== GATEWAY_ACTOR.role) {
    throw new RpcError(status.PERMISSION_DENIED, 'only the gateway, acting for itself, may do this');
  }
  return actor;
}
