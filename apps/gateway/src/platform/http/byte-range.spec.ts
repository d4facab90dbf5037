import { byteRangeOf } from './byte-range';

describe('byteRangeOf', () => {
  const etag = '"abc"';
  const of = (range?: string, ifRange?: string) => byteRangeOf({ range, ifRange }, 1000, etag);

  it('serves one range in each of its forms, bounded by the file', () => {
    expect(of('bytes=0-99')).toEqual({ offset: 0, length: 100, partial: true });
    expect(of('bytes=900-')).toEqual({ offset: 900, length: 100, partial: true });
    expect(of('bytes=-10')).toEqual({ offset: 990, length: 10, partial: true });
    expect(of('bytes=-5000')).toEqual({ offset: 0, length: 1000, partial: true });
    expect(of('bytes=990-5000')).toEqual({ offset: 990, length: 10, partial: true });
  });

  it('refuses a range past the end and an empty suffix', () => {
    expect(of('bytes=1000-')).toBe('unsatisfiable');
    expect(of('bytes=-0')).toBe('unsatisfiable');
  });

  it('sends the whole file for what it ignores: no range, a stale If-Range, several ranges, other units, nonsense', () => {
    const whole = { offset: 0, length: 1000, partial: false };
    for (const range of [undefined, 'bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=-', 'bytes=x-1', `bytes=${'9'.repeat(40)}-`]) expect(of(range)).toEqual(whole);
    expect(of('bytes=0-1', '"other"')).toEqual(whole);
    expect(of('bytes=0-1', `W/${etag}`)).toEqual(whole);
    expect(of('bytes=0-1', etag)).toEqual({ offset: 0, length: 2, partial: true });
  });
});
