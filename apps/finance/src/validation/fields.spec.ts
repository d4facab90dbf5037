import { FieldChecks } from './fields';

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
