import { isContentError } from './database-errors';

describe('isContentError', () => {
  it.each([
    [{ parent: { code: '22P05' } }, true], // untranslatable character
    [{ original: { code: '23505' } }, true], // unique violation
    [{ code: '22007' }, true], // invalid datetime format
    [{ parent: { code: '57P01' } }, false], // admin shutdown
    [{ parent: { code: '08006' } }, false], // connection failure
    [{ parent: { code: '40P01' } }, false], // deadlock
    [{ parent: { code: '53300' } }, false], // too many connections
    [new Error('Connection terminated unexpectedly'), false],
    [{ code: 'ECONNREFUSED' }, false],
    [undefined, false],
  ])('%j → %s', (error, expected) => {
    expect(isContentError(error)).toBe(expected);
  });
});
