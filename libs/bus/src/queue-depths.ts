import type { Channel, ChannelModel } from 'amqplib';

/**
 * Reads queue depths with checkQueue on a channel of its own (a failed check
 * closes its channel, and must not take a consumer's with it). The channel is
 * made on first use after each (re)connect.
 */
export class QueueDepths {
  private model?: ChannelModel;
  private channel?: Promise<Channel>;

  attach(model: ChannelModel): void {
    this.model = model;
    this.channel = undefined;
  }

  /** Messages ready for delivery in `queue`, or undefined while RabbitMQ cannot be asked. */
  async messages(queue: string): Promise<number | undefined> {
    const model = this.model;
    if (!model) return undefined;
    this.channel ??= model.createChannel().then((channel) => {
      channel.on('error', () => undefined); // the close that follows is handled below
      channel.on('close', () => {
        this.channel = undefined;
      });
      return channel;
    });
    try {
      return (await (await this.channel).checkQueue(queue)).messageCount;
    } catch {
      this.channel = undefined;
      return undefined;
    }
  }
}
