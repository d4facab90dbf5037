import { FieldChecks, isIsoDate } from './fields';

describe('isIsoDate', () => {
  it.each(['2024-02-29', '1999-12-31', '2026-01-01'])('accepts %s', (date) => expect(isIsoDate(date)).toBe(true));
  it.each(['2023-02-29', '2024-13-01', '24-01-01', '2024-1-1', '0000-01-01', '2024-01-01T00:00:00Z', ''])(
    'rejects %s',
    (date) => expect(isIsoDate(date)).toBe(false),
  );
});

describe('FieldChecks.amount', () => {
  it.each(['0', '-1500', '1000000000000000'])('accepts %s', (amount) => {
    expect(new FieldChecks().amount(amount, 'amount').errors).toEqual([]);
  });
  it.each(['1.5', '1e3', '', 'abc', '1000000000000001', '99999999999999999999'])('rejects %s', (amount) => {
    expect(new FieldChecks().amount(amount, 'amount').errors).toEqual([
      { field: 'amount', message: expect.stringMatching(/integer/) },
    ]);
  });
});
