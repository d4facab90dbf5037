import { HttpProblem } from '@libs/http-problems';

/**
 * Runs at most `limit` password hashes at once and lets at most `queueLimit`
 * more wait; beyond that it refuses with 503 and Retry-After, so that a burst
 * of sign-ins is answered at once instead of piling up behind the pool.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly queueLimit: number,
  ) {}

  async run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.queueLimit) {
        throw new HttpProblem(503, 'too many sign-ins at once; try again in 1 s', { headers: { 'Retry-After': '1' } });
      }
      // The slot is handed over by the hash that finishes, so `running` never drops in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await hash();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
