import { yearsPattern } from './year-pattern';

describe('yearsPattern', () => {
  it.each([
    [1900, 2999],
    [1900, 9999],
    [1000, 9999],
    [1999, 2001],
    [1234, 5678],
    [2024, 2024],
    [1990, 1999],
  ])('matches exactly the years %i to %i', (min, max) => {
    const pattern = new RegExp(`^${yearsPattern({ min, max })}$`);
    const wrong: number[] = [];
    for (let year = 1000; year <= 9999; year++) if (pattern.test(String(year)) !== (year >= min && year <= max)) wrong.push(year);
    expect(wrong).toEqual([]);
    expect(pattern.test('0999')).toBe(false);
  });

  it('is short for the ranges the API uses', () => {
    expect(yearsPattern({ min: 1900, max: 2999 })).toBe('(?:19\\d{2}|2\\d{3})');
    expect(yearsPattern({ min: 1900, max: 9999 })).toBe('(?:19\\d{2}|[2-9]\\d{3})');
  });

  it('refuses what is not a range of four-digit years', () => {
    expect(() => yearsPattern({ min: 999, max: 2000 })).toThrow();
    expect(() => yearsPattern({ min: 2000, max: 1999 })).toThrow();
  });
});
