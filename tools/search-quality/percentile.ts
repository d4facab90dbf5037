/** The value at fraction `p` (0 to 1) of values sorted ascending: the nearest rank, never past the last. */
export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
