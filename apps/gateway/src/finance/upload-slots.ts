/**
 * At most `size` uploads stream at once; the others wait for a place, their bodies unread (the socket's own flow
 * control holds the client back), so memory stays flat however many arrive together.
 */
export class UploadSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The place passes straight to the next in line, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}
