/** What to send of a representation of `size` bytes: all of it (200), a part (206), or a 416. */
export type ByteRange = { offset: number; length: number; partial: boolean } | 'unsatisfiable';

const ONE_RANGE = /^bytes=(\d{0,15})-(\d{0,15})$/;

/**
 * The one byte range a request asks for (RFC 9110, 14.2): `first-last`, `first-` or `-suffix`. A Range that is
 * malformed, names several ranges or another unit, or whose If-Range is not the current ETag (compared strongly)
 * is ignored, as the RFC allows: the whole file is sent. A range starting past the end, or an empty suffix, is
 * unsatisfiable.
 */
export function byteRangeOf(headers: { range?: string; ifRange?: string }, size: number, etag: string): ByteRange {
  const whole = { offset: 0, length: size, partial: false };
  if (!headers.range || (headers.ifRange !== undefined && headers.ifRange !== etag)) return whole;
  const match = ONE_RANGE.exec(headers.range.replace(/\s+/g, ''));
  if (!match || (match[1] === '' && match[2] === '')) return whole;
  const [first, last] = [match[1], match[2]];
  if (first === '') {
    const suffix = Number(last);
    return suffix === 0 ? 'unsatisfiable' : { offset: Math.max(0, size - suffix), length: Math.min(suffix, size), partial: true };
  }
  const offset = Number(first);
  if (last !== '' && Number(last) < offset) return whole;
  if (offset >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { offset, length: end - offset + 1, partial: true };
}
