import type { Request } from 'express';
import { HttpProblem } from '@libs/http-problems';

/**
 * Reads query parameters strictly: a repeated parameter, a boolean other than
 * true/false, or a number out of range is a 400 naming the parameter.
 */
export class QueryParams {
  constructor(private readonly req: Request) {}

  string(name: string, options: { max: number } = { max: 200 }): string | undefined {
    const value = this.req.query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw HttpProblem.invalidParameter(name, 'must be given once, as a plain value');
    if (value.length > options.max) throw HttpProblem.invalidParameter(name, `must be at most ${options.max} characters`);
    // PostgreSQL text cannot hold NUL, and no name needs control characters.
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(value)) throw HttpProblem.invalidParameter(name, 'must not contain control characters');
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.string(name);
    if (value === undefined) return fallback;
    if (value !== 'true' && value !== 'false') throw HttpProblem.invalidParameter(name, 'must be true or false');
    return value === 'true';
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.string(name);
    if (value === undefined) return fallback;
    if (!/^\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
      throw HttpProblem.invalidParameter(name, `must be an integer from ${min} to ${max}`);
    }
    return Number(value);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.string(name);
    if (value === undefined) return fallback;
    if (!allowed.includes(value as T)) throw HttpProblem.invalidParameter(name, `must be one of ${allowed.join(', ')}`);
    return value as T;
  }

  /** Cursors are opaque to the client; the service that signed one checks it. */
  cursor(): string | undefined {
    return this.string('cursor', { max: 2048 });
  }
}
