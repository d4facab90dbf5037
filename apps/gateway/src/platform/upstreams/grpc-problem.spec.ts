import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ProblemError, RpcError } from '@libs/grpc';
import { HttpProblem } from '@libs/http-problems';
import { problemFromGrpc } from './grpc-problem';

const asServiceError = (error: Partial<ServiceError>) => Object.assign(new Error(error.details), error) as ServiceError;

describe('problemFromGrpc', () => {
  it("answers a service's invalid argument with the very 400 the gateway makes for the same fields", () => {
    const problems = [
      { field: 'b', message: 'must be an integer from 1 to 250' },
      { field: 'n', message: 'must not contain control characters' },
    ];
    const refused = problemFromGrpc('reference', asServiceError(RpcError.invalidArguments(problems).toServiceError()), 1);
    expect(refused.body('r-1')).toEqual(HttpProblem.invalidParameters(problems).body('r-1'));
    expect(refused.body('r-1')).toMatchObject({
      status: 400,
      detail: 'b: must be an integer from 1 to 250; n: must not contain control characters',
      errors: problems,
    });
  });

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

  it('turns a named refusal into its status, a type naming it and its members', () => {
    const expired = new ProblemError(status.FAILED_PRECONDITION, 'the hold has expired', { type: 'hold_expired', expiredAt: '2027-01-04T09:00:00.000Z' });
    const gone = problemFromGrpc('scheduling', asServiceError(expired.toServiceError()), 1);
    expect(gone.body(undefined)).toEqual({
      type: 'urn:clinical-reference:problem:hold_expired',
      title: 'Gone',
      status: 410,
      detail: 'the hold has expired',
      expiredAt: '2027-01-04T09:00:00.000Z',
    });
    const policy = new ProblemError(status.OUT_OF_RANGE, 'too late', { type: 'policy', rule: 'cancel_cutoff', limit: '2027-01-04T08:00:00.000Z' });
    expect(problemFromGrpc('scheduling', asServiceError(policy.toServiceError()), 1).body(undefined)).toMatchObject({
      status: 422,
      type: 'urn:clinical-reference:problem:policy',
      rule: 'cancel_cutoff',
    });
    const illegal = new ProblemError(status.FAILED_PRECONDITION, 'not from cancelled', { type: 'illegal_transition', currentStatus: 'cancelled', allowedFrom: ['booked'] });
    expect(problemFromGrpc('scheduling', asServiceError(illegal.toServiceError()), 1).body(undefined)).toMatchObject({
      status: 409,
      currentStatus: 'cancelled',
      allowedFrom: ['booked'],
    });
  });

  it("cannot let a service's members replace RFC 9457's own", () => {
    const sneaky = new ProblemError(status.ALREADY_EXISTS, 'taken', { type: 'slot_taken', status: 200, title: 'OK', alternatives: [] });
    expect(problemFromGrpc('scheduling', asServiceError(sneaky.toServiceError()), 1).body(undefined)).toMatchObject({ status: 409, title: 'Conflict' });
  });
});
