import { LRUCache } from 'lru-cache';

export interface AnswerCacheOptions {
  /** How long an answer is served from memory: the bound on how stale it may be after an import. */
  ttlMs: number;
  maxEntries: number;
  /**
   * The answers' total size, each counted as about the length of its JSON (jsonLengthOf). A count alone does not bound memory: one
   * page of 250 detailed diseases takes most of a megabyte of heap, and any key can ask for a thousand of them.
   */
  maxBytes: number;
}

/**
 * Answers of a read-only upstream, by method and request. The reference data
 * changes only when an import runs, which the gateway is not told of, so the
 * TTL is what bounds staleness. A pending answer is shared too: a burst of the
 * same query costs one upstream call. Failures are never kept. An answer is
 * counted at one byte while pending, and at about its JSON length once it arrives.
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, Promise<unknown>>;

  constructor(options: AnswerCacheOptions) {
    this.answers = new LRUCache({ max: options.maxEntries, maxSize: options.maxBytes, ttl: options.ttlMs });
  }

  answer<T>(method: string, request: unknown, fetch: () => Promise<T>, options: { fresh?: boolean } = {}): Promise<T> {
    const key = `${method} ${JSON.stringify(request)}`;
    const known = options.fresh ? undefined : (this.answers.get(key) as Promise<T> | undefined);
    if (known) return known;
    const pending = fetch();
    this.answers.set(key, pending, { size: 1 });
    pending.then(
      (answer) => {
        if (this.answers.peek(key) !== pending) return;
        // Counted again at its real size (lru-cache keeps the old size when the same value is set again, hence
        // the delete); one larger than the whole budget is not kept.
        this.answers.delete(key);
        this.answers.set(key, pending, { size: Math.max(1, jsonLengthOf(answer)) });
      },
      () => {
        if (this.answers.peek(key) === pending) this.answers.delete(key);
      },
    );
    return pending;
  }
}

/**
 * About the length of a value's JSON, without making it: strings count their
 * characters (escapes aside), numbers their digits. Sizing an answer by
 * JSON.stringify made a second copy of every answer's text (the HTTP answer
 * makes the first) and was a tenth of the gateway's garbage per request.
 */
export function jsonLengthOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
    case 'bigint':
      return String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let length = 2 + Math.max(0, value.length - 1);
        for (const item of value) length += item === undefined ? 4 : jsonLengthOf(item);
        return length;
      }
      // for…in, not Object.entries: an array of pairs per object was most of this function's cost. Answers are
      // plain objects (decoded messages), with no inherited enumerable properties.
      let length = 2;
      const record = value as Record<string, unknown>;
      for (const name in record) {
        const item = record[name];
        if (item === undefined || typeof item === 'function') continue;
        length += name.length + 4 + jsonLengthOf(item);
      }
      return length;
    }
    default:
      return 0;
  }
}
