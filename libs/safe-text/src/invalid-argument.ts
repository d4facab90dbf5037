/** A field at fault and the rule it broke, as the API's problems list them (`errors`). */
export interface FieldProblem {
  /** The parameter or body field as the client sends it: `b`, `amount`, `[3].date`, or `(body)` for a body as a whole. */
  field: string;
  /** The rule broken, worded to follow the field's name: `must be an integer from 1 to 250`. */
  message: string;
}

/**
 * A field named by a client rather than by the API (an unknown key of a body) is quoted only if it is plain: ASCII
 * letters, digits and `_ - . [ ] ( )`, at most 100 characters (the bound field errors travel under in gRPC metadata).
 */
const PLAIN_FIELD = /^[\w.()[\]-]{1,100}$/;
const UNNAMED_FIELD = '(name not shown)';

/**
 * The one way an invalid argument is reported, whoever refuses it: a service's INVALID_ARGUMENT
 * (`RpcError.invalidArgument`, libs/grpc) and the gateway's own 400 (`HttpProblem.invalidParameter`,
 * libs/http-problems) are both made from this, and the gateway passes a service's refusal on unchanged, so a client
 * reads the same words from either: each field at fault and the rule it broke, `b: must be an integer from 1 to 250`,
 * several joined by `; `, and the same list as field errors.
 *
 * Client input is never echoed. A refusal names the parameter and the rule it broke, never the value sent: not an id,
 * a search term, a token or a date (the client has it; an echo would hand back whatever it held, 100 KB or a bidi
 * override, to whoever displays the error). A not-found says what kind of record has no such id
 * (`notFound` in libs/validation). The one name a client chooses, an unknown body field, is quoted only when plain
 * (PLAIN_FIELD), and is `(name not shown)` otherwise. The transports bound and make well-formed whatever they send.
 */
export function invalidArgument(problems: readonly FieldProblem[]): { detail: string; problems: FieldProblem[] } {
  const named = problems.map(({ field, message }) => ({ field: PLAIN_FIELD.test(field) ? field : UNNAMED_FIELD, message }));
  return { detail: named.map(({ field, message }) => `${field}: ${message}`).join('; '), problems: named };
}
