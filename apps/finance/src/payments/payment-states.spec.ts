import { GrpcStatus, RpcError } from '@libs/grpc';
import { nextStatus, type PaymentMove, type PaymentStatus } from './payment-states';

describe('nextStatus', () => {
  it('moves pending to processed and processed to resolved', () => {
    expect(nextStatus('pending', 'process')).toBe('processed');
    expect(nextStatus('processed', 'resolve')).toBe('resolved');
  });

  it('reverses a processed or a resolved payment', () => {
    expect(nextStatus('processed', 'reverse')).toBe('reversed');
    expect(nextStatus('resolved', 'reverse')).toBe('reversed');
  });

  it.each<[PaymentStatus, PaymentMove]>([
    ['pending', 'resolve'],
    ['processed', 'process'],
    ['resolved', 'process'],
    ['resolved', 'resolve'],
    ['pending', 'reverse'],
    ['reversed', 'reverse'],
    ['reversed', 'process'],
    ['reversed', 'resolve'],
  ])('refuses to %s → %s with FAILED_PRECONDITION', (status, move) => {
    let thrown: unknown;
    try {
      nextStatus(status, move);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RpcError);
    expect((thrown as RpcError).code).toBe(GrpcStatus.FAILED_PRECONDITION);
  });
});
