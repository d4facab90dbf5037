/**
 * The house's helpers as issue 22 makes them (branch wt-services): one gRPC wiring style (`grpcService`), one
 * permission check (`requirePermission`) and one write transaction (`writeTransaction`), with their signatures.
 * Until that branch lands they are written here over what the libraries have today; once it has, this file becomes
 * `export { grpcService, requirePermission } from '@libs/grpc'; export { writeTransaction, type WriteDeps } from
 * '@libs/outbox';` and nothing else of the service changes.
 */
import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import type { Sequelize, Transaction } from 'sequelize';
import { grantedRoles, type Permission } from '@libs/contracts';
import { METADATA, requireRole, serviceImplementation, type Actor, type CallContext, type HandlerOptions, type ServiceRegistration } from '@libs/grpc';
import { idempotent, type IdempotentCall } from '@libs/idempotency';

/** A handler for each method of a generated service definition, taking its request and answering its response. */
export type ServiceHandlers<D> = {
  [M in keyof D]: D[M] extends MethodDefinition<infer Request, infer Response>
    ? (request: Request, context: CallContext) => Promise<Response>
    : never;
};

/** A service for startGrpcServer, its name and methods from the generated definition. */
export function grpcService<D extends ServiceDefinition>(definition: D, handling: HandlerOptions, handlers: ServiceHandlers<D>): ServiceRegistration {
  const [first] = Object.values(definition);
  return {
    name: first.path.slice(1, first.path.lastIndexOf('/')),
    definition,
    implementation: serviceImplementation(handling, handlers as Record<string, (request: never, context: CallContext) => Promise<unknown>>),
  };
}

/** The call's signed actor, who must hold `permission` in the permission table. */
export const requirePermission = (context: CallContext, permission: Permission): Actor => requireRole(context, grantedRoles(permission));

export interface WriteDeps {
  sequelize: Sequelize;
  /** Called after a commit that wrote something to send (here: deliveries, which wake the worker). */
  afterCommit: () => void;
}

export interface OnceCall<T> extends IdempotentCall<T> {
  actor: Actor;
  context: CallContext;
}

/** One transaction, honouring Idempotency-Key when `once` carries one; afterCommit once it committed something new. */
export async function writeTransaction<T>(deps: WriteDeps, once: OnceCall<T> | undefined, write: (transaction: Transaction) => Promise<T>): Promise<T> {
  const outcome = await deps.sequelize.transaction((transaction) =>
    once
      ? idempotent(deps.sequelize, transaction, once.actor, once, () => write(transaction))
      : write(transaction).then((response) => ({ replayed: false, response })),
  );
  if (outcome.replayed) once?.context.sendHeaders?.({ [METADATA.idempotentReplayed]: 'true' });
  else deps.afterCommit();
  return outcome.response;
}
