import { z } from 'zod';
import { keyPairOf } from '@libs/signing';
import { ConfigError, env, eventTrustFields, parseConfig } from './index';

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

describe('credentials in rejected values', () => {
  const secrets = z.object({ CURSOR_SECRET: env.secret('a development secret'), DATABASE_URL: env.url('postgres://h/db', ['postgres:']) });

  it('never shows a rejected secret', () => {
    expect(() => parseConfig(secrets, { CURSOR_SECRET: 'short-secret' })).toThrow(
      /^invalid configuration: CURSOR_SECRET=\(12 characters, not shown\)/,
    );
  });

  it('shows a rejected URL without its password', () => {
    expect(() => parseConfig(secrets, { DATABASE_URL: 'mysql://app:hunter2@db/app' })).toThrow(
      /^invalid configuration: DATABASE_URL="mysql:\/\/app:\*\*\*@db\/app"/,
    );
  });
});

describe('gRPC targets and optional URLs', () => {
  const targets = z.object({
    ADDR: env.grpcTarget('127.0.0.1:50051'),
    OTLP: env.optionalUrl(['http:', 'https:']),
  });

  it.each(['finance:50052', 'ipv4:127.0.0.1:50052,127.0.0.1:50062', 'dns:///finance.default.svc.cluster.local:50052'])(
    'accepts %s as a gRPC target',
    (ADDR) => {
      expect(parseConfig(targets, { ADDR }).ADDR).toBe(ADDR);
    },
  );

  it.each(['finance', 'ipv4:127.0.0.1', 'http://finance:50052', 'finance:50052\nx'])('refuses %j as a gRPC target', (ADDR) => {
    expect(() => parseConfig(targets, { ADDR })).toThrow(/^invalid configuration: ADDR=.* must be host:port/);
  });

  it('leaves an optional URL undefined when unset or empty, and checks it when set', () => {
    expect(parseConfig(targets, {}).OTLP).toBeUndefined();
    expect(parseConfig(targets, { OTLP: '' }).OTLP).toBeUndefined();
    expect(parseConfig(targets, { OTLP: 'http://collector:4318' }).OTLP).toBe('http://collector:4318');
    expect(() => parseConfig(targets, { OTLP: 'collector:4318' })).toThrow(/OTLP=.* must be a URL starting with http:\/\//);
  });
});

describe('development secrets', () => {
  const service = z.object({
    GRPC_HOST: env.listenHost('127.0.0.1'),
    METRICS_HOST: env.listenHost('127.0.0.1'),
    CURSOR_SECRET: env.secret('dev-only-this-service-cursor-secret'),
  });
  const own = { CURSOR_SECRET: 'a secret of this deployment only' };

  it('are filled in while every bind address is loopback', () => {
    expect(parseConfig(service, {}).CURSOR_SECRET).toBe('dev-only-this-service-cursor-secret');
    expect(parseConfig(service, { GRPC_HOST: '::1', METRICS_HOST: 'localhost' }).CURSOR_SECRET).toBe('dev-only-this-service-cursor-secret');
  });

  it.each([
    [{ GRPC_HOST: '0.0.0.0' }, 'GRPC_HOST=0.0.0.0 (not loopback)'],
    [{ METRICS_HOST: '10.1.2.3' }, 'METRICS_HOST=10.1.2.3 (not loopback)'],
    [{ NODE_ENV: 'production', CURSOR_SECRET: 'dev-only-this-service-cursor-secret' }, 'NODE_ENV=production'],
    [{ NODE_ENV: 'production', CURSOR_SECRET: 'dev-only-another-service-secret' }, 'NODE_ENV=production'],
    [{ GRPC_HOST: '0.0.0.0', CURSOR_SECRET: 'dev-only-another-service-secret' }, 'GRPC_HOST=0.0.0.0 (not loopback)'],
  ])('are refused, defaulted or set, with %j', (source, where) => {
    expect(() => parseConfig(service, source)).toThrow(
      new RegExp(`^invalid configuration: CURSOR_SECRET=.* is a development value, which is public; set a secret of your own with ${where.replace(/[.()]/g, '\\$&')}$`),
    );
  });

  it('are not needed once a secret of its own is set', () => {
    expect(parseConfig(service, { ...own, GRPC_HOST: '0.0.0.0', NODE_ENV: 'production' }).CURSOR_SECRET).toBe(own.CURSOR_SECRET);
  });
});

describe('trusted development keys', () => {
  const development = keyPairOf('dev-only-a-signing-secret').publicKey.x;
  const own = keyPairOf('a secret of this deployment only').publicKey.x;
  const service = z.object({ GRPC_HOST: env.listenHost('127.0.0.1'), TRUSTED_KEYS: env.trustedKeys(development) });

  it('trust the development key while every bind address is loopback', () => {
    expect(parseConfig(service, {}).TRUSTED_KEYS).toBe(development);
  });

  it.each([[{ GRPC_HOST: '0.0.0.0' }], [{ GRPC_HOST: '0.0.0.0', TRUSTED_KEYS: `${own},${development}` }], [{ NODE_ENV: 'production', TRUSTED_KEYS: development }]])(
    'refuse the development key among the trusted ones with %j',
    (source) => {
      expect(() => parseConfig(service, source)).toThrow(/^invalid configuration: TRUSTED_KEYS=\((\d+ characters, not shown|unset)\) is a development value/);
    },
  );

  it('accept keys of its own, and nothing that is not a key', () => {
    expect(parseConfig(service, { GRPC_HOST: '0.0.0.0', TRUSTED_KEYS: own }).TRUSTED_KEYS).toBe(own);
    expect(() => parseConfig(service, { TRUSTED_KEYS: 'not a key' })).toThrow(/must be comma-separated Ed25519 public keys/);
  });
});

describe('trusted event keys', () => {
  const consumer = z.object({ GRPC_HOST: env.listenHost('127.0.0.1'), ...eventTrustFields(['finance', 'scheduling']) });
  const own = `finance:${keyPairOf('a finance secret of this deployment').publicKey.x}`;
  const developmentEntries = parseConfig(consumer, {}).EVENT_TRUSTED_KEYS.split(',');

  it("are the development secrets' keys, one per producer, while every bind address is loopback", () => {
    expect(developmentEntries).toEqual([expect.stringMatching(/^finance:[\w-]{43}$/), expect.stringMatching(/^scheduling:[\w-]{43}$/)]);
  });

  it.each([
    [{ GRPC_HOST: '0.0.0.0' }, 'GRPC_HOST=0.0.0.0 (not loopback)'],
    [{ NODE_ENV: 'production', EVENT_TRUSTED_KEYS: `${own},${developmentEntries[1]}` }, 'NODE_ENV=production'],
  ])('refuse a development key, defaulted or listed among others, with %j', (source, where) => {
    expect(() => parseConfig(consumer, source)).toThrow(new RegExp(`EVENT_TRUSTED_KEYS=.* is a development value, which is public; set a secret of your own with ${where.replace(/[.()]/g, '\\$&')}$`));
  });

  it('accept keys of their own anywhere, and refuse an entry that is not <producer>:<key>', () => {
    expect(parseConfig(consumer, { GRPC_HOST: '0.0.0.0', NODE_ENV: 'production', EVENT_TRUSTED_KEYS: own }).EVENT_TRUSTED_KEYS).toBe(own);
    expect(() => parseConfig(consumer, { EVENT_TRUSTED_KEYS: own.replace('finance:', '') })).toThrow(/EVENT_TRUSTED_KEYS=.* must be comma-separated/);
  });
});
