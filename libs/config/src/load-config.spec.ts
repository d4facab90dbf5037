import { z } from 'zod';
import { ConfigError, env, parseConfig } from './index';

const schema = z.object({
  PORT: env.port(3000),
  VERBOSE: env.bool(false),
  DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/app', ['postgres:', 'postgresql:']),
});

describe('parseConfig', () => {
  it('applies defaults when variables are unset or empty', () => {
    expect(parseConfig(schema, { PORT: '' })).toEqual({
      PORT: 3000,
      VERBOSE: false,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app',
    });
  });

  it('converts strings to the declared types', () => {
    expect(parseConfig(schema, { PORT: '8080', VERBOSE: 'true' })).toMatchObject({ PORT: 8080, VERBOSE: true });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['VERBOSE', 'yes'],
    ['DATABASE_URL', 'mysql://localhost/app'],
  ])('names the variable when %s=%s is invalid', (variable, value) => {
    const attempt = () => parseConfig(schema, { [variable]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(new RegExp(`^invalid configuration: ${variable}="${value}"`));
  });
});
