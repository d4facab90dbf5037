import type { ConfirmChannel, Options } from 'amqplib';

/**
 * Publishes on a confirm channel and resolves only once the broker has taken
 * the message. Honours back-pressure: after publish() returns false, nothing
 * more is written until the channel emits 'drain'. If the channel closes first,
 * every unconfirmed publish fails, so its caller can retry it.
 */
export class ConfirmPublisher {
  private channel?: ConfirmChannel;
  private unconfirmed = new Set<(error: Error) => void>();
  private drained: Promise<void> = Promise.resolve();
  private drainWaits = new Set<() => void>();

  attach(channel: ConfirmChannel): void {
    const unconfirmed = new Set<(error: Error) => void>();
    this.channel = channel;
    this.unconfirmed = unconfirmed;
    this.drained = Promise.resolve();
    channel.on('close', () => {
      if (this.channel === channel) this.channel = undefined;
      for (const fail of unconfirmed) fail(new Error('RabbitMQ channel closed before the broker confirmed'));
      unconfirmed.clear();
      // A closed channel never drains: let every publish waiting for it go on (and fail fast).
      for (const release of this.drainWaits) release();
      this.drainWaits.clear();
    });
  }

  get ready(): boolean {
    return this.channel !== undefined;
  }

  /**
   * `signal` bounds the wait for back-pressure: a publish that cannot start
   * before it aborts is dropped, never sent late (its caller retries it).
   */
  async publish(exchange: string, routingKey: string, body: Buffer, options: Options.Publish, signal?: AbortSignal): Promise<void> {
    await untilDrainedOr(this.drained, signal);
    const channel = this.channel;
    if (!channel) throw new Error('no RabbitMQ channel');
    const unconfirmed = this.unconfirmed;
    await new Promise<void>((resolve, reject) => {
      unconfirmed.add(reject);
      const accepted = channel.publish(exchange, routingKey, body, { persistent: true, ...options }, (error) => {
        unconfirmed.delete(reject);
        if (error) reject(error instanceof Error ? error : new Error('message was nacked by the broker'));
        else resolve();
      });
      if (!accepted) {
        this.drained = new Promise((release) => {
          this.drainWaits.add(release);
          channel.once('drain', () => {
            this.drainWaits.delete(release);
            release();
          });
        });
      }
    });
  }
}

function untilDrainedOr(drained: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return drained;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    drained.then(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    });
  });
}
