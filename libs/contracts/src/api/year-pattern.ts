/**
 * The regular expression (source, no anchors) of exactly the four-digit years from `min` to `max`. The API's
 * dates take a range of years; an OpenAPI document can state a pattern but not a range, so the validators match
 * this pattern and the document shows it.
 */
export function yearsPattern({ min, max }: { min: number; max: number }): string {
  if (!(Number.isInteger(min) && Number.isInteger(max) && 1000 <= min && min <= max && max <= 9999)) {
    throw new Error(`years ${min}..${max} are not a range of four-digit years`);
  }
  return digitRange(String(min), String(max));
}

const anyDigits = (count: number) => (count === 0 ? '' : count === 1 ? '\\d' : `\\d{${count}}`);
const digitClass = (from: number, to: number) => (from === 0 && to === 9 ? '\\d' : from === to ? String(from) : `[${from}-${to}]`);

/** Every digit string from `low` to `high`, both of the same length. */
function digitRange(low: string, high: string): string {
  if (/^0*$/.test(low) && /^9*$/.test(high)) return anyDigits(low.length);
  const [lowHead, lowTail, highHead, highTail] = [low[0], low.slice(1), high[0], high.slice(1)];
  if (lowHead === highHead) return lowHead + digitRange(lowTail, highTail);
  // The first and last leading digits may cover only part of their tails; the digits between cover every tail.
  const lowPartial = !/^0*$/.test(lowTail);
  const highPartial = !/^9*$/.test(highTail);
  const [first, last] = [Number(lowHead) + (lowPartial ? 1 : 0), Number(highHead) - (highPartial ? 1 : 0)];
  const alternatives = [
    ...(lowPartial ? [lowHead + digitRange(lowTail, '9'.repeat(lowTail.length))] : []),
    ...(first <= last ? [digitClass(first, last) + anyDigits(lowTail.length)] : []),
    ...(highPartial ? [highHead + digitRange('0'.repeat(highTail.length), highTail)] : []),
  ];
  return alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join('|')})`;
}
