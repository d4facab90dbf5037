import type { ChannelModel, ConfirmChannel, GetMessage } from 'amqplib';
import type { BusTopology } from '@libs/bus';
import { GrpcStatus, RpcError } from '@libs/grpc';

/** Messages republished before one wait for the broker's confirms: a round trip per batch, not per message. */
const REPLAY_BATCH = 100;
/** Time kept back from the caller's deadline to answer in: this, or a fifth of the time there is if less. */
const ANSWER_MARGIN_MS = 1_000;

/**
 * Admin view of the dead-letter queue: its depth, and a replay that moves
 * messages back onto the events exchange (e.g. after a fix was deployed).
 * Messages are republished and confirmed by the broker before they are acked,
 * so a crash mid-replay can duplicate a message (the audit store drops
 * duplicates) but never lose one. They are mandatory: if the audit queue is
 * gone, the broker returns them instead of confirming them into nowhere.
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

  /**
   * Replays up to `limit` messages, and stops early enough to answer before
   * `deadline` (ms since the epoch): a caller told that the replay stopped can
   * call again, while one that timed out would not know what was done.
   */
  async replay(
    limit: number,
    deadline = Infinity,
  ): Promise<{ replayed: number; remaining: number; stoppedAtDeadline: boolean }> {
    return this.withChannel(async (channel) => {
      // Only what is there now: a message that fails again comes back to this queue
      // while the replay runs, and must not be replayed round and round.
      const target = Math.min(limit, (await channel.checkQueue(this.name)).messageCount);
      const stopAt = deadline - Math.min(ANSWER_MARGIN_MS, Math.max(0, deadline - Date.now()) / 5);
      const timeLeft = () => Date.now() < stopAt;
      let returned = 0;
      channel.on('return', () => {
        returned += 1;
      });
      let replayed = 0;
      while (replayed < target && timeLeft()) {
        const batch: GetMessage[] = [];
        while (batch.length < Math.min(REPLAY_BATCH, target - replayed) && timeLeft()) {
          const message = await channel.get(this.name, { noAck: false });
          if (!message) break;
          this.republish(channel, message);
          batch.push(message);
        }
        if (batch.length === 0) break;
        await channel.waitForConfirms();
        if (returned > 0) {
          // The whole batch stays dead-lettered; those of it that were queued come again as duplicates.
          channel.nack(batch[batch.length - 1], true, true);
          throw new RpcError(
            GrpcStatus.UNAVAILABLE,
            'the audit queue is missing, so the replay stopped; the audit service declares it again within seconds: call again',
          );
        }
        // Acks every message of the batch, all of them now safely in the audit queue.
        channel.ack(batch[batch.length - 1], true);
        replayed += batch.length;
      }
      return {
        replayed,
        remaining: (await channel.checkQueue(this.name)).messageCount,
        stoppedAtDeadline: replayed < target && !timeLeft(),
      };
    });
  }

  private republish(channel: ConfirmChannel, message: GetMessage): void {
    // The quorum queue counts deliveries in this header; a replayed message starts afresh.
    const headers = { ...message.properties.headers };
    delete headers['x-delivery-count'];
    channel.publish(this.topology.exchange, message.fields.routingKey, message.content, {
      persistent: true,
      mandatory: true,
      messageId: message.properties.messageId,
      contentType: message.properties.contentType,
      headers,
    });
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
