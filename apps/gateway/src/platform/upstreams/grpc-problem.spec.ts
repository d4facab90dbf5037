import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { RpcError } from '@libs/grpc';
import { problemFromGrpc } from './grpc-problem';

const asServiceError = (error: Partial<ServiceError>) => Object.assign(new Error(error.details), error) as ServiceError;

describe('problemFromGrpc', () => {
  it('makes a refusal by cost that says when to retry a 429 with that Retry-After', () => {
    const refusal = new RpcError(status.RESOURCE_EXHAUSTED, 'the search was stopped; retry later', [], 3);
    const problem = problemFromGrpc('reference', asServiceError(refusal.toServiceError()), 1);
    expect(problem.status).toBe(429);
    expect(problem.detail).toBe('the search was stopped; retry later');
    expect(problem.options.headers).toEqual({ 'Retry-After': '3' });
  });

  it("makes grpc-js's own RESOURCE_EXHAUSTED (a message over the size limit) a 500 that names no sizes", () => {
    const tooLarge = asServiceError({
      code: status.RESOURCE_EXHAUSTED,
      details: 'Received message larger than max (9000000 vs 4194304)',
      metadata: new Metadata(),
    });
    const problem = problemFromGrpc('reference', tooLarge, 1);
    expect(problem.status).toBe(500);
    expect(problem.detail).not.toMatch(/\d{4,}/);
  });
});
