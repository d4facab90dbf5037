import { CursorCodec, InvalidCursorError } from './index';

describe('CursorCodec', () => {
  const codec = new CursorCodec('a-test-secret-of-some-length');
  const query = { name: 'diabetes', exact: false };

  it('round-trips a keyset position for the same query', () => {
    const cursor = codec.encode(query, ['Diabetes Mellitus', '42']);
    expect(codec.decode(cursor, { exact: false, name: 'diabetes' })).toEqual(['Diabetes Mellitus', '42']);
  });

  it('refuses a cursor replayed with other filters', () => {
    const cursor = codec.encode(query, ['x', '1']);
    expect(() => codec.decode(cursor, { ...query, name: 'asthma' })).toThrow(/different query/);
  });

  it('refuses a tampered payload', () => {
    const [payload, signature] = codec.encode(query, ['x', '1']).split('.');
    const forged = Buffer.from(JSON.stringify({ q: JSON.parse(Buffer.from(payload, 'base64url').toString()).q, k: ['y', '2'] })).toString('base64url');
    expect(() => codec.decode(`${forged}.${signature}`, query)).toThrow(InvalidCursorError);
  });

  it('refuses a cursor signed with another secret', () => {
    const foreign = new CursorCodec('another-secret-of-some-length').encode(query, ['x', '1']);
    expect(() => codec.decode(foreign, query)).toThrow(/signature/);
  });

  it.each(['', 'garbage', 'a.b.c', '.', '%%%.%%%', 'x'.repeat(5000)])('refuses garbage %#', (garbage) => {
    expect(() => codec.decode(garbage, query)).toThrow(InvalidCursorError);
  });
});
