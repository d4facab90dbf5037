/**
 * Amounts travel as decimal strings (int64 in the messages); the API's schemas take numbers. Anything but an
 * integer becomes NaN, which they refuse as not an amount.
 */
export const amountOf = (text: string): number => (/^-?\d{1,30}$/.test(text) ? Number(text) : Number.NaN);
