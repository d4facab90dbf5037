import type { ChannelModel, ConfirmChannel, GetMessage } from 'amqplib';
import type { BusTopology } from '@libs/bus';
import { GrpcStatus, RpcError } from '@libs/grpc';

/**
 * Admin view of the dead-letter queue: its depth, and a replay that moves
 * messages back onto the events exchange (e.g. after a fix was deployed).
 * Each message is republished with a confirm before it is acked, so a crash
 * mid-replay can duplicate a message (the audit store drops duplicates) but never lose one.
 */
export class DeadLetterQueue {
  private model?: ChannelModel;

  constructor(private readonly topology: BusTopology) {}

  /** Called on every (re)connect with the new connection. */
  attach(model: ChannelModel): void {
    this.model = model;
    model.on('close', () => {
      if (this.model === model) this.model = undefined;
    });
  }

  get name(): string {
    return this.topology.deadLetterQueue;
  }

  async depth(): Promise<number> {
    return this.withChannel(async (channel) => (await channel.checkQueue(this.name)).messageCount);
  }

  async replay(limit: number): Promise<{ replayed: number; remaining: number }> {
    return this.withChannel(async (channel) => {
      // Only what is there now: a message that fails again comes back to this queue
      // while the replay runs, and must not be replayed round and round.
      const present = (await channel.checkQueue(this.name)).messageCount;
      let replayed = 0;
      while (replayed < Math.min(limit, present)) {
        const message = await channel.get(this.name, { noAck: false });
        if (!message) break;
        await this.republish(channel, message);
        channel.ack(message);
        replayed += 1;
      }
      return { replayed, remaining: (await channel.checkQueue(this.name)).messageCount };
    });
  }

  private async republish(channel: ConfirmChannel, message: GetMessage): Promise<void> {
    // The quorum queue counts deliveries in this header; a replayed message starts afresh.
    const headers = { ...message.properties.headers };
    delete headers['x-delivery-count'];
    channel.publish(this.topology.exchange, message.fields.routingKey, message.content, {
      persistent: true,
      messageId: message.properties.messageId,
      contentType: message.properties.contentType,
      headers,
    });
    await channel.waitForConfirms();
  }

  private async withChannel<T>(use: (channel: ConfirmChannel) => Promise<T>): Promise<T> {
    if (!this.model) throw new RpcError(GrpcStatus.UNAVAILABLE, 'the audit service is not connected to RabbitMQ');
    let channel: ConfirmChannel | undefined;
    try {
      channel = await this.model.createConfirmChannel();
      return await use(channel);
    } catch (error) {
      // A connection lost mid-call: what was replayed stays replayed, the rest stays queued.
      if (error instanceof RpcError) throw error;
      throw new RpcError(GrpcStatus.UNAVAILABLE, `RabbitMQ failed during the call: ${(error as Error).message}`);
    } finally {
      await channel?.close().catch(() => undefined);
    }
  }
}
