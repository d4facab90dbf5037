import type { Consumer } from './consumer';
import type { PassiveChecks } from './passive-checks';

export type QueueState = { ready: number; consumers: number } | undefined;

/**
 * Reads the consumer's queue every intervalMs and tells the consumer (which resubscribes when the figures show its
 * subscription lost) and the caller (gauges). A read RabbitMQ cannot answer now is skipped; the next one follows.
 */
export function watchSubscription(options: {
  checks: PassiveChecks;
  queue: string;
  consumer: Consumer;
  intervalMs: number;
  onState?: (state: QueueState | 'unknown') => void;
}): { stop(): void } {
  let reading = false;
  const poll = async () => {
    if (reading) return; // a slow read is not stacked on
    reading = true;
    try {
      const state = await options.checks.queue(options.queue);
      options.onState?.(state);
      options.consumer.observe(state);
    } catch {
      options.onState?.('unknown');
    } finally {
      reading = false;
    }
  };
  void poll();
  const timer = setInterval(() => void poll(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
