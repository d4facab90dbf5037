import { epochOfInstant, instantPattern } from './instant-pattern';

const API_YEARS = instantPattern({ min: 1900, max: 2999 });

describe('instantPattern and epochOfInstant', () => {
  it.each([
    ['2027-03-08T09:00:00Z', Date.UTC(2027, 2, 8, 9)],
    ['2027-03-08T09:00Z', Date.UTC(2027, 2, 8, 9)],
    ['2027-03-08t09:00:00z', Date.UTC(2027, 2, 8, 9)],
    ['2027-03-08T09:00:00.5-05:00', Date.UTC(2027, 2, 8, 14, 0, 0, 500)],
    ['2027-03-08T09:00:00.123456789+05:30', Date.UTC(2027, 2, 8, 3, 30, 0, 123)],
    // A leap second is the last second of its minute.
    ['2027-03-08T23:59:60Z', Date.UTC(2027, 2, 8, 23, 59, 59)],
    ['1900-01-01T00:00:00+01:00', Date.UTC(1899, 11, 31, 23)],
    ['2999-12-31T23:59:59-23:59', Date.UTC(3000, 0, 1, 23, 58, 59)],
  ])('takes %s', (value, epochMs) => {
    expect(epochOfInstant(value, API_YEARS)).toBe(epochMs);
  });

  it.each([
    ['no offset', '2027-03-08T09:00:00'],
    ['an offset without its colon', '2027-03-08T09:00:00+0530'],
    ['a space for the T', '2027-03-08 09:00:00Z'],
    ['ten digits of fraction', '2027-03-08T09:00:00.1234567890Z'],
    ['a year before the range', '1899-12-31T23:59:59Z'],
    ['a year after it', '3000-01-01T00:00:00Z'],
  ])('refuses %s in its shape', (_case, value) => {
    expect(API_YEARS.test(value)).toBe(false);
    expect(epochOfInstant(value, API_YEARS)).toBeUndefined();
  });

  it.each([
    ['a day the month lacks', '2027-02-29T09:00:00Z'],
    ['24:00', '2027-03-08T24:00:00Z'],
    ['minute 60', '2027-03-08T09:60:00Z'],
    ['an offset of a day', '2027-03-08T09:00:00+24:00'],
  ])('refuses %s in its calendar check, as `format: date-time` does', (_case, value) => {
    expect(API_YEARS.test(value)).toBe(true);
    expect(epochOfInstant(value, API_YEARS)).toBeUndefined();
  });

  it('takes the years it is given', () => {
    expect(epochOfInstant('9999-12-31T23:59:59Z', instantPattern({ min: 1900, max: 9999 }))).toBe(Date.UTC(9999, 11, 31, 23, 59, 59));
  });
});
