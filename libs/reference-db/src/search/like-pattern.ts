/** Typed text as part of a LIKE pattern: its own % _ and \ taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** `text%` as a LIKE pattern, its own % _ and \ taken literally: fuzzy search's prefix candidates, $expand's filter. */
export const prefixPattern = (text: string) => `${literal(text)}%`;
