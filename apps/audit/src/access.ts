import { grantedRoles, type Permission } from '@libs/contracts';
import { requireRole, type CallContext } from '@libs/grpc';

/**
 * A handler open only to the roles holding `permission` in the permission
 * table (@libs/contracts; docs/decisions/0004): the audit log and its dead
 * letters are for admins. The gateway checks this too; the service checks the
 * signed actor again, so a caller that reaches the gRPC port directly cannot
 * read or replay anything.
 */
export const permitted =
  (permission: Permission) =>
  <Req, Res>(handler: (request: Req, context: CallContext) => Promise<Res>) =>
  (request: Req, context: CallContext): Promise<Res> => {
    requireRole(context, grantedRoles(permission));
    return handler(request, context);
  };
