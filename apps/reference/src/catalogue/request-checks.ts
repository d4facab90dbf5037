import { REFERENCE_LIMITS } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import { LINE_TEXT } from '@libs/safe-text';
import { notFound } from '@libs/validation';

const { maxTerms: MAX_TERMS, termMaxLength: MAX_TERM_LENGTH } = REFERENCE_LIMITS;

/**
 * Search terms as the query a cursor is bound to: trimmed, lower-cased (matching
 * is case-insensitive anyway), without blanks or repeats, sorted. Refusals name
 * `field`, the HTTP parameter clients send, as for diseases.
 */
export function normaliseTerms(field: string, terms: readonly string[]): string[] {
  const cleaned = [...new Set(terms.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))].sort();
  if (cleaned.length > MAX_TERMS) throw RpcError.invalidArgument(field, `must hold at most ${MAX_TERMS} comma-separated terms`);
  if (cleaned.some((t) => t.length > MAX_TERM_LENGTH)) {
    throw RpcError.invalidArgument(field, `each term must be at most ${MAX_TERM_LENGTH} characters`);
  }
  if (!cleaned.every(LINE_TEXT.accepts)) throw RpcError.invalidArgument(field, LINE_TEXT.message);
  return cleaned;
}

/** Catalogue ids are positive bigints; anything else names no record. */
export function catalogueId(id: string, what: string): string {
  if (!/^[1-9]\d{0,17}$/.test(id)) throw notFound(what);
  return id;
}
