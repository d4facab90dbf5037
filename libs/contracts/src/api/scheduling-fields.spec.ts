import { isLocalDate } from './scheduling-fields';

describe('isLocalDate', () => {
  it.each(['2024-02-29', '1999-12-31', '2026-01-01'])('accepts %s', (date) => expect(isLocalDate(date)).toBe(true));
  it.each(['2023-02-29', '2024-13-01', '24-01-01', '2024-1-1', '0000-01-01', '2024-01-01T00:00:00Z', ''])(
    'rejects %s',
    (date) => expect(isLocalDate(date)).toBe(false),
  );
});
