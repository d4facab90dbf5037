import { HttpProblem } from './problem';

describe('HttpProblem', () => {
  it('bounds a detail and field errors that quote 100 KB of client input, and keeps them well-formed', () => {
    const echoed = `${'😀'.repeat(50_000)}`;
    const body = HttpProblem.invalidParameter(`a${echoed}`, `is not ${echoed}`).body('req-1') as {
      detail: string;
      errors: { field: string; message: string }[];
    };
    expect(body.detail.length).toBeLessThanOrEqual(1_000);
    expect(body.detail.isWellFormed()).toBe(true);
    expect(body.errors[0].field.length).toBeLessThanOrEqual(200);
    expect(body.errors[0].field.isWellFormed()).toBe(true);
    expect(body.errors[0].message.length).toBeLessThanOrEqual(1_000);
  });

  it('leaves an ordinary problem as it is', () => {
    expect(HttpProblem.invalidParameter('b', 'must be an integer').body(undefined)).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'b: must be an integer',
      errors: [{ field: 'b', message: 'must be an integer' }],
    });
  });
});
