import type { Channel, ChannelModel } from 'amqplib';
import { onOwnChannel } from './own-channel';
import { declareExchange, declareQueues, type BusTopology } from './topology';

/**
 * Keeps the topology declared: on every (re)connect, and again on demand when
 * something shows it is gone while the connection stayed up (a queue deleted by
 * hand or by a policy): finance sees its messages returned as unroutable, audit
 * sees its consumer cancelled. Either side declaring it again is enough for the
 * other's retries to be routed.
 *
 * Each side declares only what a passive check (which needs no permission) finds
 * missing, then binds the queue to the exchange: so a broker user needs the right
 * to declare only what its side may have to create, the publisher its exchange and
 * the consumer its queues (docs/decisions/0021, libs/bus/src/permissions.ts).
 */
export class TopologyKeeper {
  private model?: ChannelModel;
  private declaring?: Promise<void>;

  /** `alsoDeclared`: the other consumers' topologies of the same exchange, which a publisher keeps bound too. */
  constructor(
    readonly topology: BusTopology,
    private readonly alsoDeclared: readonly BusTopology[] = [],
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
        for (const topology of [this.topology, ...this.alsoDeclared]) await declareMissing(model, topology);
      })().finally(() => {
        if (this.declaring === declaring) this.declaring = undefined;
      });
      this.declaring = declaring;
    }
    return this.declaring;
  }
}

/** Declares what of one consumer's topology is missing, then binds its queue (TopologyKeeper). */
export async function declareMissing(model: ChannelModel, topology: BusTopology): Promise<void> {
  if (!(await exists(model, (channel) => channel.checkExchange(topology.exchange)))) {
    await onOwnChannel(model, (channel) => declareExchange(channel, topology));
  }
  if (!(await exists(model, (channel) => channel.checkQueue(topology.queue)))) {
    await onOwnChannel(model, (channel) => declareQueues(channel, topology));
  }
  await onOwnChannel(model, (channel) => channel.bindQueue(topology.queue, topology.exchange, '#'));
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
