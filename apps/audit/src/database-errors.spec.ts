import { ConnectionRefusedError } from 'sequelize';
import { isContentError, isDatabaseUnreachable } from './database-errors';

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

describe('isDatabaseUnreachable', () => {
  it.each([
    [new ConnectionRefusedError(new Error('connect ECONNREFUSED')), true],
    [{ parent: { code: '57P01' } }, true],
    [{ parent: { code: '08006' } }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [{ parent: { code: '22P05' } }, false],
    [{ parent: { code: '42601' } }, false], // a syntax error is a bug, not an outage
    [new Error('something else'), false],
  ])('%j → %s', (error, expected) => {
    expect(isDatabaseUnreachable(error)).toBe(expected);
  });
});
