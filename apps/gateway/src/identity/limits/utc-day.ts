const DAY_MS = 86_400_000;

/** The UTC calendar day of an instant, as `YYYY-MM-DD` (the daily quota's unit). */
export const utcDay = (ms: number): string => new Date(ms - (ms % DAY_MS)).toISOString().slice(0, 10);

/** Milliseconds from an instant to the next UTC midnight, when the daily quota starts again. */
export const msToNextUtcDay = (ms: number): number => DAY_MS - (ms % DAY_MS);
