/** How long a key that keeps sending after a refusal waits for each further 429. */
const PACE_MS = 1_000;

/**
 * Paces the 429s of a key that keeps sending after being refused. The first
 * refusal is answered at once; another within PACE_MS of the previous one is
 * answered only after PACE_MS (never more than its Retry-After, which is a
 * second at least). A client that honours Retry-After never waits; one that ignores it gets one answer per connection
 * per PACE_MS, so a flood of refused requests cannot spend the gateway's CPU
 * as fast as it can send them. A waiting 429 holds a timer and its socket,
 * no more: no work is queued.
 */
export class RefusalPacer {
  private readonly lastRefused = new Map<string, number>();

  /** Records a refusal; how long to hold its answer. */
  delayMs(keyId: string, nowMs: number): number {
    const last = this.lastRefused.get(keyId);
    this.lastRefused.set(keyId, nowMs);
    return last !== undefined && nowMs - last < PACE_MS ? PACE_MS : 0;
  }

  /** Forgets keys not refused lately. */
  sweep(nowMs: number): void {
    for (const [keyId, last] of this.lastRefused) if (nowMs - last >= PACE_MS) this.lastRefused.delete(keyId);
  }
}
