import { z } from 'zod';
import { listedKeys } from '@libs/signing';

/** A rejected value as the error shows it: secrets never, and URLs without their password. */
function shown(variable: string, value: string | undefined): string {
  if (/SECRET|PASSWORD|TOKEN|_KEY/.test(variable)) return `(${value === undefined ? 'unset' : `${value.length} characters, not shown`})`;
  return JSON.stringify((value ?? '').replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@'));
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly value: string | undefined,
    readonly reason: string,
  ) {
    super(`invalid configuration: ${variable}=${shown(variable, value)} ${reason}`);
    this.name = 'ConfigError';
  }
}

/** Every development value a secret falls back to begins so (env.secret): another service's is refused too. */
export const DEVELOPMENT_SECRET_PREFIX = 'dev-only-';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

interface FieldMeta {
  developmentValue?: string;
  /** Entries of a list that are development values on their own (the public keys of development secrets: env.trustedKeys, eventTrustFields). */
  developmentEntries?: readonly string[];
  listenHost?: boolean;
}

const fieldsOf = (schema: z.ZodObject) =>
  Object.entries(schema.shape).map(([name, field]) => ({ name, meta: ((field as z.ZodType).meta() ?? {}) as FieldMeta }));

/**
 * A development secret is public (it is in this repository): it may sign nothing that another machine can reach.
 * Refused in production, set or not, and wherever a bind address of the process is not loopback.
 */
function refuseDevelopmentSecrets(schema: z.ZodObject, config: Record<string, unknown>, source: NodeJS.ProcessEnv): void {
  const fields = fieldsOf(schema);
  const exposedBy = fields.find(({ name, meta }) => meta.listenHost && !LOOPBACK.has(String(config[name])))?.name;
  const production = source.NODE_ENV === 'production';
  if (!production && exposedBy === undefined) return;
  for (const { name, meta } of fields) {
    if (meta.developmentValue === undefined && meta.developmentEntries === undefined) continue;
    const value = String(config[name]);
    const developmentEntry = listedKeys(value).some((entry) => meta.developmentEntries?.includes(entry));
    if (value === meta.developmentValue || value.startsWith(DEVELOPMENT_SECRET_PREFIX) || developmentEntry) {
      const where = production ? 'NODE_ENV=production' : `${exposedBy}=${String(config[exposedBy as string])} (not loopback)`;
      throw new ConfigError(name, source[name], `is a development value, which is public; set a secret of your own with ${where}`);
    }
  }
}

/** Validates `source` (normally process.env) against `schema`; throws a ConfigError naming the first bad variable. */
export function parseConfig<S extends z.ZodObject>(schema: S, source: NodeJS.ProcessEnv): z.infer<S> {
  // Empty strings count as unset, so `PORT= npm start` falls back to the default.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = schema.safeParse(present);
  if (result.success) {
    refuseDevelopmentSecrets(schema, result.data as Record<string, unknown>, source);
    return result.data;
  }
  const issue = result.error.issues[0];
  const variable = String(issue.path[0] ?? '(unknown)');
  throw new ConfigError(variable, source[variable], issue.message);
}

/** Like parseConfig, but a bad value ends the process with one line on stderr and exit code 1. */
export function loadConfig<S extends z.ZodObject>(service: string, schema: S, source = process.env): z.infer<S> {
  try {
    return parseConfig(schema, source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${service}: ${error.message}\n`);
    process.exit(1);
  }
}
