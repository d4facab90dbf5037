import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import { clientStreamHandler, serverStreamHandler, unaryHandler, type CallContext, type HandlerOptions } from './handler';
import { namesOf } from './method-path';
import type { ServiceRegistration } from './server';

/**
 * A handler for each method of a generated service definition (ts-proto's `…Service`), keyed as the definition
 * keys its methods (holdSlot), each taking that method's request and answering its response: a missing method,
 * or a handler of another method's messages, fails the type check.
 */
type ServiceHandlers<D> = {
  [M in keyof D]: D[M] extends MethodDefinition<infer Request, infer Response>
    ? D[M] extends { requestStream: true }
      ? (requests: AsyncIterable<Request>, context: CallContext) => Promise<Response>
      : D[M] extends { responseStream: true }
        ? (request: Request, context: CallContext) => AsyncIterable<Response>
        : (request: Request, context: CallContext) => Promise<Response>
    : never;
};

/** The grpc-js wrapper for a method's kind: a stream of requests, a stream of answers, or one of each. */
function wrapperOf(method: MethodDefinition<unknown, unknown>, handling: HandlerOptions, handler: unknown) {
  const { path } = method;
  if (method.requestStream) return clientStreamHandler(handling, path, handler as Parameters<typeof clientStreamHandler>[2]);
  if (method.responseStream) return serverStreamHandler(handling, path, handler as Parameters<typeof serverStreamHandler>[2]);
  return unaryHandler(handling, path, handler as Parameters<typeof unaryHandler>[2]);
}

/**
 * A service for startGrpcServer: its name and every method come from the generated definition, so each method is
 * named once, by the handler given for it; each handler is wrapped for its kind (handler.ts).
 */
export function grpcService<D extends ServiceDefinition>(definition: D, handling: HandlerOptions, handlers: ServiceHandlers<D>): ServiceRegistration {
  const methods = Object.entries(definition).map(([key, method]) => {
    return [key, wrapperOf(method, handling, handlers[key as keyof D])];
  });
  const [first] = Object.values(definition);
  return { name: namesOf(first.path).service, definition, implementation: Object.fromEntries(methods) };
}
