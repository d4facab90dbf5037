import { z } from 'zod';

/** A rejected value as the error shows it: secrets never, and URLs without their password. */
function shown(variable: string, value: string | undefined): string {
  if (/SECRET|PASSWORD|TOKEN/.test(variable)) return `(${value === undefined ? 'unset' : `${value.length} characters, not shown`})`;
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

/** Validates `source` (normally process.env) against `schema`; throws a ConfigError naming the first bad variable. */
export function parseConfig<S extends z.ZodObject>(schema: S, source: NodeJS.ProcessEnv): z.infer<S> {
  // Empty strings count as unset, so `PORT= npm start` falls back to the default.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = schema.safeParse(present);
  if (result.success) return result.data;
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
