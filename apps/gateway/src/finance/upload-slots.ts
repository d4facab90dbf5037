import { HttpProblem } from '@libs/http-problems';

/** What an upload refused for want of a place is told to wait: places free as uploads end, a few seconds each. */
const RETRY_AFTER_SECONDS = 5;

/**
 * At most `size` uploads stream at once; the others wait for a place, their bodies unread (the socket's own flow
 * control holds the client back), so memory stays flat however many arrive together. A wait is bounded: the
 * gateway's request timeout runs from the request's first byte, the wait included, so an upload let in late would
 * take its share of the bandwidth from the others and still end in a 408 (and a client that is still sending often
 * reads a reset, not the 408). One that waits `maxWaitMs` is refused instead, before a byte of its body is read: 503
 * with Retry-After.
 */
export class UploadSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    size: number,
    private readonly maxWaitMs: number,
  ) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await this.place();
    try {
      return await work();
    } finally {
      // The place passes straight to the next in line, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }

  private place(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const given = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(given), 1);
        reject(
          new HttpProblem(503, `every place for an upload stayed taken for ${this.maxWaitMs / 1000} s; send the file again later`, {
            headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
          }),
        );
      }, this.maxWaitMs);
      this.waiting.push(given);
    });
  }
}
