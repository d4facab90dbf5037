import { z } from 'zod';
import { CURSOR_MAX_LENGTH, QUERY_TEXT_MAX_LENGTH, UUID_LENGTH, type IntegerRange } from '@libs/contracts';
import { CONTROL_CHARACTER_CLASS, LINE_TEXT } from '@libs/safe-text';

/**
 * The strict rules every query parameter follows, as zod schemas that parse
 * the raw value Express gives (a string, or an array when the parameter was
 * repeated). A parameter given twice, one holding a control character, a
 * boolean other than true/false or a number out of range is a 400 naming the
 * parameter. Each check stops at its first failure, so one parameter gets one
 * message. Declarations use these; the OpenAPI document shows what they parse to.
 */

// Checked as a pattern of the whole value, which the document states.
const WITHOUT_CONTROL_CHARACTERS = new RegExp(LINE_TEXT.pattern);

/**
 * Plain text: given once, at most `max` characters, no control characters. A
 * parameter that must be given says what is missing in `required`.
 */
export const queryText = (max: number = QUERY_TEXT_MAX_LENGTH, required?: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined && required ? required : 'must be given once, as a plain value') })
    .max(max, { message: `must be at most ${max} characters`, abort: true })
    .regex(WITHOUT_CONTROL_CHARACTERS, { message: LINE_TEXT.message, abort: true });

/** The pattern of text that must hold more than white space (the service trims it), as the document states it. */
export const NON_BLANK_PATTERN = `^[^${CONTROL_CHARACTER_CLASS}]*[^\\s${CONTROL_CHARACTER_CLASS}][^${CONTROL_CHARACTER_CLASS}]*$`;

/**
 * The pattern of a comma-separated list that the document states: at most `terms` terms of at most `termLength`
 * characters each, without control characters. The service that reads the list checks its terms once trimmed,
 * without blanks or repeats, so it takes every list this pattern allows (and a few more).
 */
export function listPattern(terms: number, termLength: number): string {
  const term = `[^,${CONTROL_CHARACTER_CLASS}]{0,${termLength}}`;
  return `^${term}(?:,${term}){0,${terms - 1}}$`;
}

/** A whole number within `range`, its default when absent. */
export function queryInteger(range: IntegerRange) {
  const message = `must be an integer from ${range.min} to ${range.max}`;
  const digits = queryText().regex(/^\d{1,9}$/, { message });
  const value = z.int().min(range.min, { message }).max(range.max, { message });
  return z.codec(digits, value, { decode: Number, encode: String }).default(range.default);
}

/** `true` or `false`, nothing else; its default when absent. */
export function queryBoolean(fallback: boolean) {
  const word = queryText().pipe(z.enum(['true', 'false'], { message: 'must be true or false' }));
  return z
    .codec(word, z.boolean(), { decode: (value) => value === 'true', encode: (value) => (value ? 'true' : 'false') })
    .default(fallback);
}

/** One of a few words. */
export const queryChoice = <const T extends readonly [string, ...string[]]>(allowed: T) =>
  queryText().pipe(z.enum(allowed, { message: `must be one of ${allowed.join(', ')}` }));

/**
 * The longest text `schema` takes: its own maximum, a UUID's length, or (neither known) any query text's. Read from
 * the schema so the length the gateway checks first is the one the document shows and the schema enforces.
 */
function maxLengthOf(schema: z.ZodType): number {
  const { maxLength, format } = schema as { maxLength?: number | null; format?: string | null };
  if (typeof maxLength === 'number') return maxLength;
  return format === 'uuid' || format === 'guid' ? UUID_LENGTH : QUERY_TEXT_MAX_LENGTH;
}

/** A string query parameter that must also pass a schema of the API (a date, a UUID), bounded by that schema's length. */
export const queryOf = <T>(schema: z.ZodType<T, string>) => queryText(maxLengthOf(schema)).pipe(schema);

/** The `nextCursor` of the previous page, sent back unchanged; the service that signed it checks it. */
export const cursor = queryText(CURSOR_MAX_LENGTH)
  .optional()
  .meta({
    description:
      'The `nextCursor` of the previous page, sent unchanged. A tampered cursor, or one sent with other filters, is refused with 400.',
  });
