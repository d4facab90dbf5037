/**
 * Upstream calls in progress per key on this instance, so that one key cannot
 * hold every call: over its limit a call is refused, never queued. Entries
 * exist only while a key has calls in progress.
 */
export class ConcurrencyGate {
  private readonly inFlight = new Map<string, number>();

  /** Takes a place for the key, or returns false when it holds `limit` already. */
  tryEnter(keyId: string, limit: number): boolean {
    const held = this.inFlight.get(keyId) ?? 0;
    if (held >= limit) return false;
    this.inFlight.set(keyId, held + 1);
    return true;
  }

  leave(keyId: string): void {
    const held = this.inFlight.get(keyId) ?? 0;
    if (held <= 1) this.inFlight.delete(keyId);
    else this.inFlight.set(keyId, held - 1);
  }

  held(keyId: string): number {
    return this.inFlight.get(keyId) ?? 0;
  }
}
