export { startGrpcServer, type RunningGrpcServer, type ServiceRegistration } from './server';
export { unaryHandler, type CallContext, type Actor } from './handler';
export { RpcError, fieldErrorsOf, type FieldError } from './errors';
export { callUnary, createClient, outgoingMetadata, type UnaryMethod } from './client';
export { METADATA } from './metadata';
export { HealthProbe } from './health-client';
export { status as GrpcStatus, Metadata, type ServiceError } from '@grpc/grpc-js';
export { retryWithinDeadline, READ_RETRY_POLICY, type RetryPolicy, type RetryOptions } from './retry';
