import { z } from 'zod';
import { fieldErrorsOf } from '@libs/contracts';
import { cursor, queryBoolean, queryChoice, queryInteger, queryText } from './query-fields';

/** What a query parses to, or the field problems a 400 would list, as Express's simple parser hands it over. */
function parse(query: Record<string, string | string[]>) {
  const schema = z.object({
    n: queryText(10).optional(),
    b: queryInteger({ min: 1, max: 250, default: 25 }),
    r: queryBoolean(true),
    order: queryChoice(['asc', 'desc']).optional(),
    cursor,
  });
  const result = schema.safeParse(query);
  return result.success ? result.data : fieldErrorsOf(result.error);
}

describe('the strict query rules', () => {
  it('gives defaults for what is left out, and parses what is given', () => {
    expect(parse({})).toEqual({ b: 25, r: true });
    expect(parse({ n: 'asthma', b: '250', r: 'false', order: 'desc' })).toEqual({ n: 'asthma', b: 250, r: false, order: 'desc' });
  });

  it.each([
    [{ n: ['a', 'b'] }, 'n', 'must be given once, as a plain value'],
    [{ n: 'x'.repeat(11) }, 'n', 'must be at most 10 characters'],
    [{ n: 'a\u0000b' }, 'n', 'must not contain control characters'],
    [{ b: '0' }, 'b', 'must be an integer from 1 to 250'],
    [{ b: '251' }, 'b', 'must be an integer from 1 to 250'],
    [{ b: '1e2' }, 'b', 'must be an integer from 1 to 250'],
    [{ b: ' 5' }, 'b', 'must be an integer from 1 to 250'],
    [{ r: 'TRUE' }, 'r', 'must be true or false'],
    [{ r: '1' }, 'r', 'must be true or false'],
    [{ order: 'up' }, 'order', 'must be one of asc, desc'],
    [{ cursor: 'c'.repeat(2049) }, 'cursor', 'must be at most 2048 characters'],
  ])('refuses %j with one problem naming the parameter', (query, field, message) => {
    expect(parse(query)).toEqual([{ field, message }]);
  });

  it('names every bad parameter, once each', () => {
    expect(parse({ b: 'x', r: 'yes', n: ['1', '2'] })).toEqual([
      { field: 'n', message: 'must be given once, as a plain value' },
      { field: 'b', message: 'must be an integer from 1 to 250' },
      { field: 'r', message: 'must be true or false' },
    ]);
  });
});
