import type { Channel, ChannelModel } from 'amqplib';

/**
 * Passive checks: how many messages wait in a queue, whether an exchange exists.
 * RabbitMQ answers a check of a missing name by closing the channel, so they run on
 * a channel of their own (not a consumer's or a publisher's), made on first use after
 * each (re)connect and again after each close.
 */
export class PassiveChecks {
  private model?: ChannelModel;
  private channel?: Promise<Channel>;

  /** Called on every (re)connect with the new connection. */
  attach(model: ChannelModel): void {
    this.model = model;
    this.channel = undefined;
  }

  /** Messages ready for delivery in `queue` (not those consumers hold), or undefined if the queue does not exist. */
  async readyMessages(queue: string): Promise<number | undefined> {
    return (await this.check((channel) => channel.checkQueue(queue)))?.messageCount;
  }

  /** Consumers subscribed to `queue` across every connection, or undefined if the queue does not exist. */
  async consumers(queue: string): Promise<number | undefined> {
    return (await this.check((channel) => channel.checkQueue(queue)))?.consumerCount;
  }

  async exchangeExists(exchange: string): Promise<boolean> {
    return (await this.check((channel) => channel.checkExchange(exchange))) !== undefined;
  }

  /** Resolves undefined if RabbitMQ says the name does not exist; rejects while RabbitMQ cannot be asked. */
  private async check<T>(work: (channel: Channel) => Promise<T>): Promise<T | undefined> {
    const model = this.model;
    if (!model) throw new Error('no RabbitMQ connection');
    const channel = (this.channel ??= model.createChannel().then((created) => {
      created.on('error', () => undefined); // the check that caused it rejects, below
      created.on('close', () => {
        if (this.channel === channel) this.channel = undefined;
      });
      return created;
    }));
    try {
      return await work(await channel);
    } catch (error) {
      if (this.channel === channel) this.channel = undefined;
      if ((error as { code?: unknown }).code === 404) return undefined;
      throw error;
    }
  }
}
