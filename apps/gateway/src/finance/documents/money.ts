/**
 * Minor units (cents: the API's integers) as the decimal a document shows, e.g. -125000 → "-1250.00". Integer
 * arithmetic on the digits, so no amount the API takes (up to ±2^53) is rounded.
 */
export function decimalOf(minorUnits: number): string {
  const digits = Math.abs(minorUnits).toString().padStart(3, '0');
  return `${minorUnits < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
