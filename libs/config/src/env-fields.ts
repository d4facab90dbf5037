import { z } from 'zod';

/** Reusable validators for environment variables, which always arrive as strings. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  int: (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false'], { message: 'must be true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true'),
  url: (fallback: string, protocols: string[]) =>
    z
      .string()
      .default(fallback)
      .refine((value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`),
  hostPort: (fallback: string) =>
    z.string().regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port').default(fallback),
  text: (fallback: string) => z.string().default(fallback),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Outside production a development value is filled in; in production the variable must be set. */
  secret: (devFallback: string) => {
    const secret = z.string({ message: 'must be set in production' }).min(16, 'must be at least 16 characters');
    return process.env.NODE_ENV === 'production' ? secret : secret.default(devFallback);
  },
  /** Demo conveniences are on in development and off in production unless asked for. */
  devOnly: () => env.bool(process.env.NODE_ENV !== 'production'),
};
