import { GrpcStatus, RpcError } from '@libs/grpc';
import { CursorCodec, cursorPosition, isText, isTextTuple, keysetPage, pageSize } from './index';

/** The numbers 1..25 as rows keyed by their zero-padded text, walked in order. */
const ROWS = Array.from({ length: 25 }, (_, index) => String(index + 1).padStart(2, '0'));

describe('keysetPage', () => {
  const cursors = new CursorCodec('a-test-secret-of-some-length');
  const fetched: { after: string | undefined; limit: number }[] = [];
  const page = (cursor: string, limit = 10, query: unknown = { all: true }) =>
    keysetPage({
      cursors,
      cursor,
      query,
      limit,
      isPosition: isText,
      positionOf: (row: string) => row,
      fetch: async (after, rows) => {
        fetched.push({ after, limit: rows });
        return ROWS.filter((row) => after === undefined || row > after).slice(0, rows);
      },
    });

  /** The RpcError a call throws, as the field errors a client would see. */
  const refusal = async (call: Promise<unknown>) => {
    const error = await call.then(() => undefined, (thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(GrpcStatus.INVALID_ARGUMENT);
    return (error as RpcError).fieldErrors;
  };

  it('walks every row once, asking for one row more than the page, and ends without a cursor', async () => {
    fetched.length = 0;
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const next = await page(cursor, pages === 1 ? 7 : 10); // the page size may change mid-walk
      seen.push(...next.rows);
      cursor = next.nextCursor;
      pages += 1;
    } while (cursor !== '');
    expect(seen).toEqual(ROWS);
    expect(pages).toBe(3);
    expect(fetched).toEqual([
      { after: undefined, limit: 11 },
      { after: '10', limit: 8 },
      { after: '17', limit: 11 },
    ]);
  });

  it('gives no cursor when the last page is exactly full', async () => {
    expect((await page('', 25)).nextCursor).toBe('');
    expect((await page('', 24)).nextCursor).not.toBe('');
  });

  it('ends a page cut short by bytes with a cursor, and the walk still serves every row once', async () => {
    // A fetch bounded by bytes as well: at most three rows a page, whatever the limit.
    const bounded = (cursor: string) =>
      keysetPage({
        cursors,
        cursor,
        query: { all: true },
        limit: 10,
        isPosition: isText,
        positionOf: (row: string) => row,
        fetch: async (after, rows) => {
          const matching = ROWS.filter((row) => after === undefined || row > after).slice(0, rows);
          return { rows: matching.slice(0, 3), cut: matching.length > 3 };
        },
      });
    const seen: string[] = [];
    let cursor = '';
    do {
      const next = await bounded(cursor);
      seen.push(...next.rows);
      cursor = next.nextCursor;
    } while (cursor !== '');
    expect(seen).toEqual(ROWS);
  });

  it('refuses a cursor replayed with another query, naming cursor', async () => {
    const { nextCursor } = await page('');
    expect(await refusal(page(nextCursor, 10, { all: false }))).toEqual([
      { field: 'cursor', message: expect.stringMatching(/different query/) },
    ]);
  });

  it('refuses a forged or damaged cursor, naming cursor', async () => {
    const { nextCursor } = await page('');
    expect(await refusal(page(`${nextCursor}x`))).toEqual([{ field: 'cursor', message: expect.stringMatching(/signature/) }]);
    expect(await refusal(page('garbage'))).toEqual([{ field: 'cursor', message: 'is malformed' }]);
  });

  it('refuses a correctly signed position of another shape', async () => {
    const foreign = cursors.encode({ all: true }, ['10', '11']);
    expect(await refusal(page(foreign))).toEqual([{ field: 'cursor', message: 'is malformed' }]);
  });
});

describe('cursorPosition', () => {
  const cursors = new CursorCodec('a-test-secret-of-some-length');
  const pair = isTextTuple<[string, string]>(2);

  it('is undefined without a cursor and the signed position with one', () => {
    expect(cursorPosition(cursors, '', {}, pair)).toBeUndefined();
    expect(cursorPosition(cursors, cursors.encode({}, ['a', '1']), {}, pair)).toEqual(['a', '1']);
  });

  it.each([[['a']], [['a', 1]], [['a', '1', 'x']], ['a'], [null], [{ 0: 'a', 1: '1' }]])('refuses the position %j', (position) => {
    expect(() => cursorPosition(cursors, cursors.encode({}, position), {}, pair)).toThrow('cursor: is malformed');
  });
});

describe('pageSize', () => {
  const sizes = { default: 25, max: 250 };

  it('reads 0 (nothing sent) as the default and keeps 1..max', () => {
    expect([0, 1, 250].map((requested) => pageSize(requested, sizes))).toEqual([25, 1, 250]);
  });

  it.each([-1, 251, 1.5])('refuses %p, naming the parameter', (requested) => {
    expect(() => pageSize(requested, sizes, 'b')).toThrow(
      expect.objectContaining({ code: GrpcStatus.INVALID_ARGUMENT, fieldErrors: [{ field: 'b', message: 'must be an integer from 1 to 250' }] }),
    );
  });
});
