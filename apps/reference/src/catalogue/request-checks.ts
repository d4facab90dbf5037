import { REFERENCE_LIMITS } from '@libs/contracts';
import { GrpcStatus, RpcError } from '@libs/grpc';

/** Field names in errors are the HTTP parameters clients send, as for diseases. */
export const invalid = (field: string, message: string): RpcError =>
  new RpcError(GrpcStatus.INVALID_ARGUMENT, `${field}: ${message}`, [{ field, message }]);

/** A fixed message: an id can be anything a client sent (100 KB, emoji), so it is never echoed. */
export const unknownId = (what: string): RpcError => new RpcError(GrpcStatus.NOT_FOUND, `no ${what} has that id`);

/** Control characters: no search term holds one, and PostgreSQL refuses a NUL in any text. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

const { maxTerms: MAX_TERMS, termMaxLength: MAX_TERM_LENGTH } = REFERENCE_LIMITS;

/**
 * Search terms as the query a cursor is bound to: trimmed, lower-cased (matching
 * is case-insensitive anyway), without blanks or repeats, sorted.
 */
export function normaliseTerms(field: string, terms: readonly string[]): string[] {
  const cleaned = [...new Set(terms.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''))].sort();
  if (cleaned.length > MAX_TERMS) throw invalid(field, `must hold at most ${MAX_TERMS} comma-separated terms`);
  if (cleaned.some((t) => t.length > MAX_TERM_LENGTH)) {
    throw invalid(field, `each term must be at most ${MAX_TERM_LENGTH} characters`);
  }
  if (cleaned.some((t) => CONTROL_CHARACTER.test(t))) throw invalid(field, 'must not contain control characters');
  return cleaned;
}

/** Catalogue ids are positive bigints; anything else names no record. */
export function catalogueId(id: string, what: string): string {
  if (!/^[1-9]\d{0,17}$/.test(id)) throw unknownId(what);
  return id;
}
