/**
 * Strings that cross a boundary (gRPC status details and metadata, AMQP
 * headers, HTTP headers, log lines) must be well-formed UTF-16: grpc-js runs
 * encodeURI on status details, which throws URIError on a lone surrogate, and
 * a cut through a surrogate pair makes one. Every cut goes through here.
 */

const ELLIPSIS = '…';

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/** The text with every lone surrogate replaced by U+FFFD; a well-formed text comes back as it is. */
export const wellFormed = (text: string): string => text.toWellFormed();

/**
 * The text, well-formed and at most `maxLength` UTF-16 units long. A longer
 * text is cut (never inside a surrogate pair) and ends with '…'.
 */
export function boundedText(text: string, maxLength: number): string {
  const whole = wellFormed(text);
  if (whole.length <= maxLength) return whole;
  if (maxLength < ELLIPSIS.length) return '';
  let end = maxLength - ELLIPSIS.length;
  // Well-formed, so a high surrogate just before the cut always has its pair just after it.
  if (end > 0 && isHighSurrogate(whole.charCodeAt(end - 1))) end -= 1;
  return `${whole.slice(0, end)}${ELLIPSIS}`;
}
