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
  private releaseDrainWait: () => void = () => undefined;

  attach(channel: ConfirmChannel): void {
    const unconfirmed = new Set<(error: Error) => void>();
    this.channel = channel;
    this.unconfirmed = unconfirmed;
    this.drained = Promise.resolve();
    channel.on('close', () => {
      if (this.channel === channel) this.channel = undefined;
      for (const fail of unconfirmed) fail(new Error('RabbitMQ channel closed before the broker confirmed'));
      unconfirmed.clear();
      // A closed channel never drains: let any publish waiting for it go on (and fail fast).
      this.releaseDrainWait();
    });
  }

  get ready(): boolean {
    return this.channel !== undefined;
  }

  async publish(exchange: string, routingKey: string, body: Buffer, options: Options.Publish): Promise<void> {
    await this.drained;
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
          this.releaseDrainWait = release;
          channel.once('drain', () => release());
        });
      }
    });
  }
}
