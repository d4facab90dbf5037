import { RefusalPacer } from './refusal-pacer';

describe('pacing the 429s of a key that ignores Retry-After', () => {
  it('answers a first refusal at once, and holds the ones that follow it within a second', () => {
    const pacer = new RefusalPacer();
    expect(pacer.delayMs('k', 0)).toBe(0);
    expect(pacer.delayMs('k', 10)).toBe(1_000);
    expect(pacer.delayMs('other', 10)).toBe(0);
    // A client that waited its Retry-After (a second at least) is answered at once again.
    expect(pacer.delayMs('k', 1_010)).toBe(0);
  });

  it('forgets keys not refused for a second', () => {
    const pacer = new RefusalPacer();
    pacer.delayMs('k', 0);
    pacer.sweep(1_000);
    expect(pacer.delayMs('k', 500)).toBe(0);
  });
});
