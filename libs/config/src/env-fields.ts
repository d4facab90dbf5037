import { z } from 'zod';
import { isPublicKeyText, listedKeys } from '@libs/signing';

function isUrlWith(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const urlMessage = (protocols: string[]) => `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`;

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
      .refine((value) => isUrlWith(value, protocols), urlMessage(protocols)),
  /** Unset or empty means "not configured"; set, it must be a URL with one of the protocols. */
  optionalUrl: (protocols: string[]) =>
    z
      .string()
      .optional()
      .transform((value) => value || undefined)
      .refine((value) => value === undefined || isUrlWith(value, protocols), urlMessage(protocols)),
  hostPort: (fallback: string) =>
    z.string().regex(/^[\w.-]+:\d{1,5}$/, 'must be host:port').default(fallback),
  /**
   * Where a gRPC client connects: host:port, or a gRPC target naming several
   * instances (`ipv4:127.0.0.1:50052,127.0.0.1:50062`, `dns:finance:50052`).
   */
  grpcTarget: (fallback: string) =>
    z
      .string()
      .regex(
        /^(?:[\w.-]+:\d{1,5}|ipv4:[\d.]+:\d{1,5}(?:,[\d.]+:\d{1,5})*|dns:(?:\/\/[\w.:-]*\/)?[\w.-]+:\d{1,5})$/,
        'must be host:port, ipv4:host:port,host:port,... or dns:name:port',
      )
      .default(fallback),
  text: (fallback: string) => z.string().default(fallback),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Outside production a development value is filled in; in production the variable must be set. `shownDefault`
   * is what the README's configuration table says of a default that is not a value to copy (tools/config-docs).
   */
  secret: (devFallback: string) => {
    const secret = z.string({ message: 'must be set in production' }).min(16, 'must be at least 16 characters');
    return (process.env.NODE_ENV === 'production' ? secret : secret.default(devFallback)).meta({ shownDefault: 'a development value', developmentValue: devFallback });
  },
  /** Comma-separated Ed25519 public keys (libs/signing), or none. */
  publicKeys: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .refine((text) => listedKeys(text).every(isPublicKeyText), 'must be comma-separated Ed25519 public keys, each 43 base64url characters'),
  /**
   * The public keys a service trusts (publicKeys, at least one): outside production the development key's
   * public half is filled in; in production the variable must be set, and that key is refused (load-config.ts).
   */
  trustedKeys: (developmentKey: string) => {
    const keys = env.publicKeys('').refine((text) => listedKeys(text).length > 0, 'must list at least one key');
    return (process.env.NODE_ENV === 'production' ? keys : env.publicKeys(developmentKey)).meta({ shownDefault: "the development key's public half", developmentEntries: [developmentKey] });
  },
  /** A bind address: one that is not loopback makes development secrets refused (load-config.ts). */
  listenHost: (fallback: string) => z.string().default(fallback).meta({ listenHost: true }),
  /** Demo conveniences are on in development and off in production unless asked for. */
  devOnly: () => env.bool(process.env.NODE_ENV !== 'production').meta({ shownDefault: '`true`, `false` when `NODE_ENV=production`' }),
};
