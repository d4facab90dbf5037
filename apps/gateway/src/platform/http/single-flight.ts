/**
 * Wraps an expensive async computation so that it runs at most once per
 * window: callers while it runs await the same promise, and its result is
 * reused for `windowMs` after it settles. A rejection is not reused: the next
 * caller starts again. `now` is injectable so tests move the clock.
 */
export function reuseFor<T>(windowMs: number, compute: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let current: Promise<T> | undefined;
  // When the current result stops being reused; Infinity while it is still being computed.
  let expiresAt = 0;
  return () => {
    if (current && now() < expiresAt) return current;
    expiresAt = Infinity;
    const running = compute();
    current = running;
    running.then(
      () => {
        if (current === running) expiresAt = now() + windowMs;
      },
      () => {
        if (current === running) current = undefined;
      },
    );
    return running;
  };
}
