/**
 * Stores the items handed to it in as few transactions as it can: while one transaction is committing, the items
 * that arrive wait, and the next transaction takes all of them. An event's cost to the database is then mostly the
 * statements and the commit it shares, not its own rows; an item arriving alone is stored at once, so a quiet
 * consumer waits for nothing. How many wait at most is the consumer's prefetch: each is a message held unacked.
 *
 * Each item's promise settles only after its own transaction committed (the consumer acks then). When a transaction
 * of several fails, each of its items is stored again in a transaction of its own, so one that the database refuses
 * fails alone and the others are stored; the failure of that one is its caller's to handle (storePatiently).
 */
export class StoreTogether<T, R> {
  private waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private storing = false;

  /** `storeAll` stores its items in one transaction and returns their results in their order. */
  constructor(private readonly storeAll: (items: T[]) => Promise<R[]>) {}

  store(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.storing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.storing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        const results = await this.storeAll(batch.map(({ item }) => item));
        batch.forEach(({ resolve }, i) => resolve(results[i]));
      } catch (error) {
        if (batch.length === 1) batch[0].reject(error);
        else await Promise.all(batch.map(({ item, resolve, reject }) => this.storeAll([item]).then(([result]) => resolve(result), reject)));
      }
    }
    this.storing = false;
  }
}
