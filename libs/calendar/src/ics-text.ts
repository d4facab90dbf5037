/**
 * RFC 5545's rules for writing content lines: TEXT values escaped (§3.3.11), lines folded at 75 octets
 * (§3.1), CRLF between lines.
 */

/** Escapes a TEXT value: backslash, semicolon, comma, and newlines as `\n`; other control characters dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // TEXT allows no CONTROL but HTAB (§3.3.11); a name holding one must still give a valid file.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '')
  );
}

const MAX_OCTETS = 75;

/**
 * Folds a content line into lines of at most 75 octets of UTF-8, each continuation starting with a space
 * (which counts), never splitting a character's bytes (§3.1: a fold inside a multi-octet sequence breaks it).
 */
export function foldLine(line: string): string {
  // Most lines are short: one count of their bytes, not one per character (a feed writes some 50,000 lines).
  if (Buffer.byteLength(line, 'utf8') <= MAX_OCTETS) return line;
  const lines: string[] = [];
  let current = '';
  let octets = 0;
  for (const character of line) {
    const size = Buffer.byteLength(character, 'utf8');
    if (octets + size > MAX_OCTETS) {
      lines.push(current);
      current = ' ';
      octets = 1;
    }
    current += character;
    octets += size;
  }
  lines.push(current);
  return lines.join('\r\n');
}

/** A number in at least `length` digits (iCalendar's dates and times are fixed width). */
export const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** The wall-clock fields of a Date read as UTC, as an iCalendar DATE-TIME without its `Z` (`20260308T140000`). */
export const dateTimeFields = (time: Date): string =>
  `${pad(time.getUTCFullYear(), 4)}${pad(time.getUTCMonth() + 1)}${pad(time.getUTCDate())}T${pad(time.getUTCHours())}${pad(time.getUTCMinutes())}${pad(time.getUTCSeconds())}`;

/** An instant as a UTC DATE-TIME (`20260308T140000Z`, §3.3.5 form #2). A feed writes three per event: no regular expressions. */
export function utcDateTime(instant: string): string {
  const time = new Date(instant);
  if (Number.isNaN(time.getTime())) throw new RangeError(`not an instant: ${instant.slice(0, 40)}`);
  return `${dateTimeFields(time)}Z`;
}

/** Content lines, folded, as a file: CRLF after every line, the last included. */
export const contentLines = (lines: string[]): string => lines.map(foldLine).join('\r\n') + '\r\n';
