import { STATUS_CODES } from 'node:http';
import { boundedText } from '@libs/safe-text';

// A detail or field error may quote what a client sent (an email, a parameter's name): bounded, so an answer
// never carries 100 KB of it back, and well-formed.
const MAX_DETAIL_LENGTH = 1_000;
const MAX_FIELD_LENGTH = 200;

export interface ProblemFieldError {
  /** The parameter or body field at fault, e.g. `b`, `amount` or `items[3].date`. */
  field: string;
  message: string;
}

/** An RFC 9457 problem; throw it from a route and the error handler renders it. */
export class HttpProblem extends Error {
  readonly title: string;

  constructor(
    readonly status: number,
    readonly detail: string,
    readonly options: {
      errors?: ProblemFieldError[];
      headers?: Record<string, string>;
      type?: string;
      /** Members the problem type defines beyond RFC 9457's own (which they cannot replace). */
      extensions?: Record<string, unknown>;
    } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
    this.title = STATUS_CODES[status] ?? 'Error';
  }

  static badRequest(detail: string, errors?: ProblemFieldError[]): HttpProblem {
    return new HttpProblem(400, detail, { errors });
  }

  static invalidParameter(field: string, message: string): HttpProblem {
    return new HttpProblem(400, `${field}: ${message}`, { errors: [{ field, message }] });
  }

  static notFound(detail: string): HttpProblem {
    return new HttpProblem(404, detail);
  }

  body(requestId: string | undefined): Record<string, unknown> {
    return {
      ...this.options.extensions,
      type: this.options.type ?? 'about:blank',
      title: this.title,
      status: this.status,
      detail: boundedText(this.detail, MAX_DETAIL_LENGTH),
      ...(requestId ? { requestId } : {}),
      ...(this.options.errors?.length
        ? {
            errors: this.options.errors.map(({ field, message }) => ({
              field: boundedText(field, MAX_FIELD_LENGTH),
              message: boundedText(message, MAX_DETAIL_LENGTH),
            })),
          }
        : {}),
    };
  }
}
