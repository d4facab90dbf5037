import type { ConfirmChannel, Options } from 'amqplib';

/**
 * Publishes on a confirm channel and resolves only once the broker has taken
 * the message. Honours back-pressure: after publish() returns false, nothing
 * more is written until the channel emits 'drain'.
 */
export class ConfirmPublisher {
  private channel?: ConfirmChannel;
  private drained: Promise<void> = Promise.resolve();

  attach(channel: ConfirmChannel): void {
    this.channel = channel;
    this.drained = Promise.resolve();
    channel.on('close', () => {
      if (this.channel === channel) this.channel = undefined;
    });
  }

  get ready(): boolean {
    return this.channel !== undefined;
  }

  async publish(exchange: string, routingKey: string, body: Buffer, options: Options.Publish): Promise<void> {
    await this.drained;
    const channel = this.channel;
    if (!channel) throw new Error('no RabbitMQ channel');
    await new Promise<void>((resolve, reject) => {
      const onClose = () => reject(new Error('RabbitMQ channel closed before the broker confirmed'));
      channel.once('close', onClose);
      const accepted = channel.publish(exchange, routingKey, body, { persistent: true, ...options }, (error) => {
        channel.off('close', onClose);
        if (error) reject(error instanceof Error ? error : new Error('message was nacked by the broker'));
        else resolve();
      });
      if (!accepted) this.drained = new Promise((drain) => channel.once('drain', () => drain()));
    });
  }
}
