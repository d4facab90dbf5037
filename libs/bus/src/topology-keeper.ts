import type { Channel, ChannelModel } from 'amqplib';
import { onOwnChannel } from './own-channel';
import { declareExchange, declareQueues, type BusTopology } from './topology';

/** Which side of a stream a keeper declares for: each owns, and always declares, its part (docs/decisions/0021). */
export type BusSide = 'publisher' | 'consumer';

/**
 * Keeps the topology declared: on every (re)connect, and again on demand when
 * something shows it is gone while the connection stayed up (a queue deleted by
 * hand or by a policy): finance sees its messages returned as unroutable, audit
 * sees its consumer cancelled. Either side declaring it again is enough for the
 * other's retries to be routed.
 *
 * Each side declares its own part every time (so that one declared by hand with
 * other arguments is refused, not used) and the other side's only when a passive
 * check, which needs no permission, finds it missing; then the queue is bound to
 * the exchange. So a broker user needs the right to declare only its own part,
 * the publisher its exchange and the consumer its queues (libs/bus permissions.ts):
 * deployed, the broker's definitions declare the other's.
 */
export class TopologyKeeper {
  private model?: ChannelModel;
  private declaring?: Promise<void>;

  /** `alsoDeclared`: the other consumers' topologies of the same exchange, which a publisher keeps bound too. */
  constructor(
    readonly topology: BusTopology,
    private readonly alsoDeclared: readonly BusTopology[] = [],
    private readonly side: BusSide = 'consumer',
  ) {}

  /** Called on every (re)connect with the new connection; declares the topology on it. */
  attach(model: ChannelModel): Promise<void> {
    this.model = model;
    this.declaring = undefined;
    model.once('close', () => {
      if (this.model === model) this.model = undefined;
    });
    return this.declare();
  }

  /**
   * Declares the topology again, on channels of its own (a refused declaration or a
   * check of a missing name closes its channel); calls made while a declaration runs share it.
   */
  declare(): Promise<void> {
    const model = this.model;
    if (!model) return Promise.reject(new Error('no RabbitMQ connection to declare the topology on'));
    if (!this.declaring) {
      const declaring = (async () => {
        for (const topology of [this.topology, ...this.alsoDeclared]) await declareSide(model, topology, this.side);
      })().finally(() => {
        if (this.declaring === declaring) this.declaring = undefined;
      });
      this.declaring = declaring;
    }
    return this.declaring;
  }
}

/** Declares one consumer's topology as `side` may (TopologyKeeper), and binds its queue to the exchange. */
export async function declareSide(model: ChannelModel, topology: BusTopology, side: BusSide): Promise<void> {
  if (side === 'publisher' || !(await exists(model, (channel) => channel.checkExchange(topology.exchange)))) {
    await onOwnChannel(model, (channel) => declareExchange(channel, topology));
  }
  if (side === 'consumer' || !(await exists(model, (channel) => channel.checkQueue(topology.queue)))) {
    await onOwnChannel(model, (channel) => declareQueues(channel, topology));
  } else {
    await onOwnChannel(model, (channel) => channel.bindQueue(topology.queue, topology.exchange, '#'));
  }
}

/** Whether a passive check finds its name; RabbitMQ answers a missing one by closing the channel with 404. */
async function exists(model: ChannelModel, check: (channel: Channel) => Promise<unknown>): Promise<boolean> {
  try {
    await onOwnChannel(model, check);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 404) return false;
    throw error;
  }
}
