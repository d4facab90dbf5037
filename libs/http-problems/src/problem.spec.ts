import { HttpProblem } from './problem';

describe('HttpProblem', () => {
  it('does not echo a field name a client sent unless it is plain', () => {
    const body = HttpProblem.invalidParameter(`a${'😀'.repeat(50_000)}`, 'is not a known field').body('req-1');
    expect(body).toMatchObject({
      detail: '(name not shown): is not a known field',
      errors: [{ field: '(name not shown)', message: 'is not a known field' }],
    });
  });

  it('bounds a detail and field messages of 100 KB, and keeps them well-formed', () => {
    const long = `${'😀'.repeat(50_000)}`;
    const body = new HttpProblem(400, `a${long}`, { errors: [{ field: `a${long}`, message: `is not ${long}` }] }).body('req-1') as {
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
