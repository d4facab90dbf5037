import { Metadata, status, type ServerUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { ConnectionAcquireTimeoutError, ConnectionRefusedError, DatabaseError } from 'sequelize';
import { createLogger } from '@libs/logging';
import { unaryHandler } from './handler';

/** What the caller gets from a handler that fails with `error`, and the levels the service logged it at. */
function outcomeOf(error: unknown): Promise<{ error: Partial<ServiceError>; levels: string[] }> {
  const logger = createLogger('test', 'debug');
  const levels: string[] = [];
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    logger[level] = ((..._args: unknown[]) => void levels.push(level)) as typeof logger.debug;
  }
  const handler = unaryHandler({ logger, actors: null }, 'Fails', () => Promise.reject(error));
  const call = { metadata: new Metadata(), request: {}, getDeadline: () => Infinity } as unknown as ServerUnaryCall<object, object>;
  return new Promise((resolve) => handler(call, (failure) => resolve({ error: failure as Partial<ServiceError>, levels })));
}

describe('unaryHandler, when the database cannot be reached', () => {
  it.each([
    ['the connection is refused', new ConnectionRefusedError(new Error('connect ECONNREFUSED 127.0.0.1:5432'))],
    ['no pooled connection frees up in time', new ConnectionAcquireTimeoutError(new Error('TimeoutError'))],
    [
      'the backend was terminated',
      new DatabaseError(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', sql: '' })),
    ],
  ])('answers UNAVAILABLE with a fixed message and logs a warning when %s', async (_what, failure) => {
    const { error, levels } = await outcomeOf(failure);
    expect(error).toMatchObject({ code: status.UNAVAILABLE, details: 'the database is unavailable; retry shortly' });
    expect(levels).toEqual(['warn']);
  });

  it('still answers INTERNAL, logged as an error, for a query the database refuses', async () => {
    const { error, levels } = await outcomeOf(new DatabaseError(Object.assign(new Error('syntax error'), { code: '42601', sql: '' })));
    expect(error).toMatchObject({ code: status.INTERNAL, details: 'internal error' });
    expect(levels).toEqual(['error']);
  });
});
