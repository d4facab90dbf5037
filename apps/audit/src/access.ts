import { requireRole, type CallContext } from '@libs/grpc';

/**
 * The audit log and its dead letters are for admins (docs/decisions/0004). The gateway
 * checks this too; the service checks the signed actor again, so a caller that
 * reaches the gRPC port directly cannot read or replay anything.
 */
export const adminOnly =
  <Req, Res>(handler: (request: Req, context: CallContext) => Promise<Res>) =>
  (request: Req, context: CallContext): Promise<Res> => {
    requireRole(context, ['admin']);
    return handler(request, context);
  };
