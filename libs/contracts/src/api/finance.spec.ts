import { amount, isoDate, text } from './finance';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);

describe('isoDate', () => {
  it.each(['2024-02-29', '1999-12-31', '2026-01-01'])('accepts %s', (date) => expect(isoDate.safeParse(date).success).toBe(true));
  it.each(['2023-02-29', '2024-13-01', '24-01-01', '2024-1-1', '0000-01-01', '3000-01-01', '2024-01-01T00:00:00Z', ''])(
    'rejects %s',
    (date) => expect(messages(isoDate.safeParse(date))).toEqual(['must be a date written YYYY-MM-DD']),
  );
});

describe('amount', () => {
  it.each([0, -1500, 1_000_000_000_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])('accepts %s', (value) => {
    expect(amount.safeParse(value).success).toBe(true);
  });
  it.each([1.5, Number.NaN, Infinity, '1000'])('refuses %s as not an integer of minor units', (value) => {
    expect(messages(amount.safeParse(value))).toEqual(['must be an integer number of minor units']);
  });
  it('refuses an amount a JSON number cannot carry exactly', () => {
    expect(messages(amount.safeParse(2 ** 53 + 1))).toEqual(['must be an integer number of minor units']);
    expect(messages(amount.safeParse(Number.MAX_SAFE_INTEGER + 1))).not.toEqual([]);
  });
});

describe('text', () => {
  const payee = text(200, { required: true });
  it.each([
    ['', 'is required'],
    ['   ', 'is required'],
    ['x'.repeat(201), 'must be at most 200 characters'],
    ['a\u0000b', 'must not contain NUL characters'],
  ])('refuses %j with one message', (value, message) => expect(messages(payee.safeParse(value))).toEqual([message]));
  it('accepts text within the limit', () => expect(payee.safeParse('Registrar').success).toBe(true));
});
