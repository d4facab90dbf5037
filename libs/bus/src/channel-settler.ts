import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from '@libs/logging';

/**
 * Settles the messages of one consumer channel, acknowledging those handled
 * together in as few frames as it can. Acks wait for the end of the event-loop
 * turn (setImmediate): the messages stored in one batch are all acked in that
 * turn. Then one `multiple` ack covers every message up to the last one in
 * delivery order that is acked with all those before it; the rest are acked one
 * by one. A frame per message was a sixth of audit's CPU, and RabbitMQ's work
 * too. Nacks go out at once, so nothing is acked that was not handled: the
 * broker's `multiple` covers only messages still unacknowledged on the channel,
 * which this class mirrors (delivered and not yet settled, in delivery order).
 */
export class ChannelSettler {
  /** Delivered and not yet settled, by delivery tag, in delivery order (tags grow on a channel). */
  private readonly outstanding = new Map<number, ConsumeMessage>();
  private readonly acked = new Set<number>();
  private flushPending = false;

  constructor(
    private readonly channel: Channel,
    private readonly logger: Logger,
  ) {}

  delivered(message: ConsumeMessage): void {
    this.outstanding.set(message.fields.deliveryTag, message);
  }

  ack(message: ConsumeMessage): void {
    this.acked.add(message.fields.deliveryTag);
    if (this.flushPending) return;
    this.flushPending = true;
    setImmediate(() => this.flush());
  }

  nack(message: ConsumeMessage, requeue: boolean): void {
    this.outstanding.delete(message.fields.deliveryTag);
    this.settle(() => this.channel.nack(message, false, requeue));
  }

  private flush(): void {
    this.flushPending = false;
    let upTo: ConsumeMessage | undefined;
    for (const [tag, message] of this.outstanding) {
      if (!this.acked.has(tag)) break;
      upTo = message;
      this.outstanding.delete(tag);
      this.acked.delete(tag);
    }
    if (upTo) {
      const last = upTo;
      this.settle(() => this.channel.ack(last, true));
    }
    for (const tag of this.acked) {
      const message = this.outstanding.get(tag);
      this.outstanding.delete(tag);
      if (message) this.settle(() => this.channel.ack(message));
    }
    this.acked.clear();
  }

  /** A channel that closed meanwhile throws; its unsettled messages are redelivered. */
  private settle(send: () => void): void {
    try {
      send();
    } catch (error) {
      this.logger.warn({ err: error }, 'could not settle a message; it will be redelivered');
    }
  }
}
