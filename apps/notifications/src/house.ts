/** The house's helpers (issue 22): one gRPC wiring style, one permission check and one write transaction. */
export { grpcService, requirePermission } from '@libs/grpc';
export { writeTransaction, type WriteDeps } from '@libs/outbox';
