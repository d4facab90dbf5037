import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { unaryHandler, type CallContext, type HandlerOptions } from './handler';
import type { ServiceRegistration } from './server';

/**
 * A handler for each method of a generated service definition (ts-proto's `…Service`), keyed as the definition
 * keys its methods (holdSlot), each taking that method's request and answering its response: a missing method,
 * or a handler of another method's messages, fails the type check.
 */
export type ServiceHandlers<D> = {
  [M in keyof D]: D[M] extends MethodDefinition<infer Request, infer Response>
    ? (request: Request, context: CallContext) => Promise<Response>
    : never;
};

/** `/scheduling.v1.SchedulingService/HoldSlot` → the service and the method, as health checks and metrics name them. */
function namesOf(path: string): { service: string; method: string } {
  const slash = path.lastIndexOf('/');
  return { service: path.slice(1, slash), method: path.slice(slash + 1) };
}

/**
 * A service for startGrpcServer: its name and every method come from the generated definition, so each method is
 * named once, by the handler given for it; each handler is wrapped by unaryHandler.
 */
export function grpcService<D extends ServiceDefinition>(definition: D, handling: HandlerOptions, handlers: ServiceHandlers<D>): ServiceRegistration {
  const methods = Object.entries(definition).map(([key, method]) => {
    const handler = handlers[key as keyof D] as (request: unknown, context: CallContext) => Promise<unknown>;
    return [key, unaryHandler(handling, namesOf(method.path).method, handler)];
  });
  const [first] = Object.values(definition);
  return { name: namesOf(first.path).service, definition, implementation: Object.fromEntries(methods) };
}
