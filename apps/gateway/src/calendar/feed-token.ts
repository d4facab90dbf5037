import { createHash, randomBytes } from 'node:crypto';

/** Recognisable in a log or a leaked paste (as secret scanners look for), and never a valid token of another kind. */
const PREFIX = 'cal_';
const TOKEN_BYTES = 32;

/** A new feed token: 256 random bits, base64url, with its prefix. Only its creator sees it, once. */
export const newFeedToken = (): string => `${PREFIX}${randomBytes(TOKEN_BYTES).toString('base64url')}`;

/**
 * The hash the service keeps and looks a feed up by. Any string presented is hashed the same way, whatever its
 * shape (none is refused first): a wrong, tampered or malformed token costs what a real one does, and finds nothing.
 * A plain SHA-256 suffices: the tokens are 256 random bits, so there is nothing to guess from the hash.
 */
export const feedTokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
