import { invalidArgument } from './invalid-argument';

describe('invalidArgument', () => {
  it('names each field and the rule it broke, in one detail and as field errors', () => {
    const problems = [
      { field: 'b', message: 'must be an integer from 1 to 250' },
      { field: '[3].date', message: 'is required' },
    ];
    expect(invalidArgument(problems)).toEqual({ detail: 'b: must be an integer from 1 to 250; [3].date: is required', problems });
  });

  it('quotes a field name only when it is plain, so an unknown key a client sent is not echoed', () => {
    for (const sent of ['a\u202eb', 'x'.repeat(101), 'a b', '<script>', 'a\u0000b', '😀', '']) {
      const { detail, problems } = invalidArgument([{ field: sent, message: 'is not a known field' }]);
      expect(problems).toEqual([{ field: '(name not shown)', message: 'is not a known field' }]);
      expect(detail).toBe('(name not shown): is not a known field');
    }
    expect(invalidArgument([{ field: 'Idempotency-Key', message: 'is required' }]).problems[0].field).toBe('Idempotency-Key');
    expect(invalidArgument([{ field: '(body)', message: 'is required' }]).problems[0].field).toBe('(body)');
  });
});
