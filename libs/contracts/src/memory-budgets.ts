/**
 * How many bytes of event and entry bodies each reader of them holds at once (docs/decisions/0024). Counts alone do
 * not bound memory: one bulk create makes an event of about 1.2 MB, so 50 of them prefetched, 200 claimed, or 2,000
 * read for /verify ran a 128 MB heap out of memory. Every reader below takes whole rows or messages until the next
 * would pass its budget, and always at least one, so an entry larger than a budget still moves (alone).
 */
export const MEMORY_BUDGETS = {
  /**
   * The largest event a producer makes at the default body limit (1 MiB): a bulk create of 1,000 items with long
   * notes is about 1.2 MB once ids, amounts and timestamps are added. A deployment that raises BODY_LIMIT_BYTES
   * should raise this with it.
   */
  largestEventBytes: 2 * 1024 * 1024,
  /** Outbox payloads one relay pass claims and publishes. */
  relayClaimBytes: 8 * 1024 * 1024,
  /** Event messages one consumer holds unacknowledged: its prefetch is this over largestEventBytes. */
  consumerBytes: 16 * 1024 * 1024,
  /** `before` and `after` of the entries of one audit page: the audit service and the gateway each hold a page. */
  auditPageBytes: 4 * 1024 * 1024,
  /** `before` and `after` of the entries /verify reads in one batch. */
  verifyBatchBytes: 8 * 1024 * 1024,
} as const;

/** The prefetch of a consumer: the count asked for, lowered so that that many of the largest events fit its budget. */
export const prefetchWithinBudget = (count: number): number =>
  Math.min(count, Math.max(1, Math.floor(MEMORY_BUDGETS.consumerBytes / MEMORY_BUDGETS.largestEventBytes)));
