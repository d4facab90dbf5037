/**
 * The one rule on the control characters a client's text may hold, for every service and the gateway.
 * PostgreSQL text cannot store NUL, so no text holds one (a NUL let through would fail its statement with a 500).
 * Beyond that:
 * - a line of text (a query parameter, a search term, a name to look up) holds none at all: C0 (U+0000–U+001F)
 *   or DEL; nothing a client searches or filters by needs one;
 * - free text (a note, a reason) keeps the others: line breaks and tabs are part of what people write.
 */
interface TextRule {
  accepts(text: string): boolean;
  /** The rule as a pattern of the whole value, as JSON Schema states it (the OpenAPI document's `pattern`). */
  pattern: string;
  /** The refusal's field message, as in `n: must not contain control characters`. */
  message: string;
}

/** The characters a line of text may not hold, as the inside of a regular expression's character class. */
export const CONTROL_CHARACTER_CLASS = '\\u0000-\\u001f\\u007f';

const LINE_PATTERN = `^[^${CONTROL_CHARACTER_CLASS}]*$`;
const LINE = new RegExp(LINE_PATTERN);
const FREE_PATTERN = '^[^\\u0000]*$';

export const LINE_TEXT: TextRule = {
  accepts: (text) => LINE.test(text),
  pattern: LINE_PATTERN,
  message: 'must not contain control characters',
};

export const FREE_TEXT: TextRule = {
  accepts: (text) => !text.includes('\u0000'),
  pattern: FREE_PATTERN,
  message: 'must not contain NUL characters',
};
