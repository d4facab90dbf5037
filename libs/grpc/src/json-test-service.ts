import type { ServiceDefinition } from '@grpc/grpc-js';

const json = {
  serialize: (value: unknown) => Buffer.from(JSON.stringify(value)),
  deserialize: (buffer: Buffer) => JSON.parse(buffer.toString()) as unknown,
};

/** For tests: a gRPC service of unary methods whose messages are JSON, so that no .proto is needed. */
export function jsonTestService(service: string, methods: readonly string[]): ServiceDefinition {
  const method = (name: string) => ({
    path: `/${service}/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  });
  return Object.fromEntries(methods.map((name) => [name, method(name)]));
}
