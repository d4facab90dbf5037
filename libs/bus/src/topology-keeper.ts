import type { ChannelModel } from 'amqplib';
import { declareTopology, type BusTopology } from './topology';

/**
 * Keeps the topology declared: on every (re)connect, and again on demand when
 * something shows it is gone while the connection stayed up (a queue deleted by
 * hand or by a policy): finance sees its messages returned as unroutable, audit
 * sees its consumer cancelled. Either side declaring it again is enough for the
 * other's retries to be routed.
 */
export class TopologyKeeper {
  private model?: ChannelModel;
  private declaring?: Promise<void>;

  constructor(readonly topology: BusTopology) {}

  /** Called on every (re)connect with the new connection; declares the topology on it. */
  attach(model: ChannelModel): Promise<void> {
    this.model = model;
    this.declaring = undefined;
    model.once('close', () => {
      if (this.model === model) this.model = undefined;
    });
    return this.declare();
  }

  /** Declares the topology again; calls made while a declaration runs share it. */
  declare(): Promise<void> {
    const model = this.model;
    if (!model) return Promise.reject(new Error('no RabbitMQ connection to declare the topology on'));
    if (!this.declaring) {
      const declaring = declareOnOwnChannel(model, this.topology).finally(() => {
        if (this.declaring === declaring) this.declaring = undefined;
      });
      this.declaring = declaring;
    }
    return this.declaring;
  }
}

/**
 * A declaration the broker refuses (e.g. the queue was re-created by hand with other
 * arguments) closes its channel: on a channel of its own, that takes neither the
 * publisher's nor the consumer's channel with it.
 */
async function declareOnOwnChannel(model: ChannelModel, topology: BusTopology): Promise<void> {
  const channel = await model.createChannel();
  // The refusal rejects the declaration below; unheard, the channel's 'error' event would close the connection.
  channel.on('error', () => undefined);
  try {
    await declareTopology(channel, topology);
  } finally {
    await channel.close().catch(() => undefined);
  }
}
