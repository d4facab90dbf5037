import type { Channel, ChannelModel } from 'amqplib';

/** A check unanswered for this long is given up, with its channel: later checks must not queue behind it. */
const CHECK_TIMEOUT_MS = 5_000;

/**
 * Passive checks: how many messages wait in a queue, whether an exchange exists.
 * RabbitMQ answers a check of a missing name by closing the channel, so they run on
 * a channel of their own (not a consumer's or a publisher's), made on first use after
 * each (re)connect and again after each close or timeout.
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

  /** Ready messages and consumers (across every connection) of `queue`, or undefined if it does not exist. */
  async queue(queue: string): Promise<{ ready: number; consumers: number } | undefined> {
    const found = await this.check((channel) => channel.checkQueue(queue));
    return found && { ready: found.messageCount, consumers: found.consumerCount };
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
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        void channel.then((stuck) => stuck.close()).catch(() => undefined);
        reject(new Error(`RabbitMQ did not answer a passive check within ${CHECK_TIMEOUT_MS} ms`));
      }, CHECK_TIMEOUT_MS);
    });
    try {
      return await Promise.race([channel.then(work), timeout]);
    } catch (error) {
      if (this.channel === channel) this.channel = undefined;
      if ((error as { code?: unknown }).code === 404) return undefined;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
