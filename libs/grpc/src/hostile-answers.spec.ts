import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  status,
  type Client,
  type handleUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { createLogger } from '@libs/logging';
import { ProblemError, RpcError, fieldErrorsOf, problemOf } from './errors';
import { unaryHandler } from './handler';
import { jsonTestService } from './json-test-service';
import { startGrpcServer, type RunningGrpcServer } from './server';

const METHODS = ['Refuse', 'Reject', 'Throw', 'RawDetails', 'RawThrow'] as const;
const definition = jsonTestService('test.Hostile', METHODS);

/** The id of the reported request, cut where the old not-found message cut it: inside an emoji. */
const CUT_ID = `a${'😀'.repeat(30)}`.slice(0, 40);

describe('what a service answers when its handler misbehaves (over real gRPC)', () => {
  const logger = createLogger('test', 'silent');
  let server: RunningGrpcServer;
  let client: Client;
  let refusal: RpcError;

  beforeAll(async () => {
    const handle = (run: () => Promise<unknown>) => unaryHandler({ logger, actors: null }, 'test', run);
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [
        {
          name: 'test.Hostile',
          definition,
          implementation: {
            Refuse: handle(async () => {
              throw refusal;
            }),
            Reject: handle(() => Promise.reject(new Error(`database said: ${CUT_ID}`))),
            Throw: handle(() => {
              throw new TypeError('a synchronous throw');
            }),
            // Written without unaryHandler: the server's own guard must catch these.
            RawDetails: ((_call, callback) => callback({ code: status.NOT_FOUND, details: CUT_ID } as ServiceError)) as handleUnaryCall<unknown, unknown>,
            RawThrow: (() => {
              throw new Error('thrown before any answer');
            }) as handleUnaryCall<unknown, unknown>,
          },
        },
      ],
    });
    const Client = makeGenericClientConstructor(definition, 'Hostile');
    client = new Client(`127.0.0.1:${server.port}`, credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    await server?.shutdown(1_000);
  });

  const call = (name: (typeof METHODS)[number]) =>
    new Promise<ServiceError>((resolve, reject) => {
      const send = (client as unknown as Record<string, (...args: unknown[]) => void>)[name].bind(client);
      send({}, new Metadata(), { deadline: Date.now() + 5_000 }, (error: ServiceError | null) =>
        error ? resolve(error) : reject(new Error('expected an error status')),
      );
    });

  it('answers a refusal whose message ends in half an emoji, with a well-formed message', async () => {
    refusal = new RpcError(status.NOT_FOUND, `no dosage has the id "${CUT_ID}"`);
    const error = await call('Refuse');
    expect(error.code).toBe(status.NOT_FOUND);
    expect(error.details).toBe(`no dosage has the id "${CUT_ID.toWellFormed()}"`);
  });

  it('bounds a 100 KB message, and carries field errors in any script', async () => {
    refusal = new RpcError(status.INVALID_ARGUMENT, 'x'.repeat(100_000), [
      { field: 'payee', message: `must not hold ${CUT_ID} or ünïcödé` },
    ]);
    const error = await call('Refuse');
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.details.length).toBeLessThanOrEqual(500);
    expect(fieldErrorsOf(error)).toEqual([{ field: 'payee', message: `must not hold ${CUT_ID.toWellFormed()} or ünïcödé` }]);
  });

  it('answers with its code, not at the deadline, however many and long the field errors', async () => {
    const message = '😀'.repeat(1_000);
    refusal = new RpcError(status.INVALID_ARGUMENT, message, Array.from({ length: 5_000 }, (_, i) => ({ field: `ids[${i}]${message}`, message })));
    const error = await call('Refuse');
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(fieldErrorsOf(error).length).toBeGreaterThan(0);
  });

  it('carries a problem in any script, and its type alone when it is too long to travel', async () => {
    refusal = new ProblemError(status.FAILED_PRECONDITION, 'cannot confirm', { type: 'illegal_transition', current: `held ${CUT_ID}`, allowed: ['held'] });
    expect(problemOf(await call('Refuse'))).toEqual({ type: 'illegal_transition', current: `held ${CUT_ID.toWellFormed()}`, allowed: ['held'] });
    refusal = new ProblemError(status.FAILED_PRECONDITION, 'overlaps', { type: 'overlapping_appointments', ids: Array(1_000).fill(CUT_ID) });
    const error = await call('Refuse');
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(problemOf(error)).toEqual({ type: 'overlapping_appointments' });
  });

  it.each(['Reject', 'Throw'] as const)('answers INTERNAL, without the detail, when the handler fails unexpectedly (%s)', async (name) => {
    const error = await call(name);
    expect(error.code).toBe(status.INTERNAL);
    expect(error.details).toBe('internal error');
  });

  it.each(['RawDetails', 'RawThrow'] as const)('answers INTERNAL for a method written without unaryHandler (%s)', async (name) => {
    const error = await call(name);
    expect(error.code).toBe(status.INTERNAL);
  });
});
