import { LRUCache } from 'lru-cache';

export interface AnswerCacheOptions {
  /** How long an answer is served from memory: the bound on how stale it may be after an import. */
  ttlMs: number;
  maxEntries: number;
}

/**
 * Answers of a read-only upstream, by method and request. The reference data
 * changes only when an import runs, which the gateway is not told of, so the
 * TTL is what bounds staleness. A pending answer is shared too: a burst of the
 * same query costs one upstream call. Failures are never kept.
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, Promise<unknown>>;

  constructor(options: AnswerCacheOptions) {
    this.answers = new LRUCache({ max: options.maxEntries, ttl: options.ttlMs });
  }

  answer<T>(method: string, request: unknown, fetch: () => Promise<T>, options: { fresh?: boolean } = {}): Promise<T> {
    const key = `${method} ${JSON.stringify(request)}`;
    const known = options.fresh ? undefined : (this.answers.get(key) as Promise<T> | undefined);
    if (known) return known;
    const pending = fetch();
    this.answers.set(key, pending);
    pending.catch(() => {
      if (this.answers.peek(key) === pending) this.answers.delete(key);
    });
    return pending;
  }
}
