import { STATUS_CODES } from 'node:http';
import { boundedText, invalidArgument, type FieldProblem } from '@libs/safe-text';

// Bounded and well-formed whatever a detail or field error holds: no answer carries 100 KB back, even from a
// refusal that broke the rule on echoing client input (invalidArgument in libs/safe-text).
const MAX_DETAIL_LENGTH = 1_000;
const MAX_FIELD_LENGTH = 200;

/** An RFC 9457 problem; throw it from a route and the error handler renders it. */
export class HttpProblem extends Error {
  readonly title: string;

  constructor(
    readonly status: number,
    readonly detail: string,
    readonly options: {
      errors?: FieldProblem[];
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

  /** A 400 about the request as a whole; one about a parameter or field is `invalidParameter`. */
  static badRequest(detail: string): HttpProblem {
    return new HttpProblem(400, detail);
  }

  /** A 400 naming `field` and the rule it broke, worded as a service's INVALID_ARGUMENT is (`invalidArgument`). */
  static invalidParameter(field: string, message: string): HttpProblem {
    return HttpProblem.invalidParameters([{ field, message }]);
  }

  /** A 400 naming every parameter or field at fault. */
  static invalidParameters(problems: readonly FieldProblem[]): HttpProblem {
    const { detail, problems: errors } = invalidArgument(problems);
    return new HttpProblem(400, detail, { errors });
  }

  static notFound(detail: string): HttpProblem {
    return new HttpProblem(404, detail);
  }

  /** A 413 for a request body over `limitBytes`. */
  static bodyTooLarge(limitBytes: number): HttpProblem {
    return new HttpProblem(413, `the request body is larger than the limit of ${limitBytes} bytes`);
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
