import type { ChannelModel } from 'amqplib';
import { onOwnChannel } from './own-channel';
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

  /** `alsoDeclared`: the other consumers' topologies of the same exchange, which a publisher declares too. */
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
   * Declares the topology again, on a channel of its own (a refused declaration closes
   * its channel); calls made while a declaration runs share it.
   */
  declare(): Promise<void> {
    const model = this.model;
    if (!model) return Promise.reject(new Error('no RabbitMQ connection to declare the topology on'));
    if (!this.declaring) {
      const declaring = onOwnChannel(model, async (channel) => {
        for (const topology of [this.topology, ...this.alsoDeclared]) await declareTopology(channel, topology);
      }).finally(() => {
        if (this.declaring === declaring) this.declaring = undefined;
      });
      this.declaring = declaring;
    }
    return this.declaring;
  }
}
