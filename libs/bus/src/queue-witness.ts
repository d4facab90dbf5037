import type { ChannelModel } from 'amqplib';
import { onOwnChannel } from './own-channel';
import { PassiveChecks } from './passive-checks';
import type { BusTopology } from './topology';
import { declareSide } from './topology-keeper';

export type QueueObservation = { deleted: true } | { deleted: false; ready: number };

/**
 * Tells whether the queue was deleted since it was last armed, even if it has been
 * declared again since (the audit consumer does so a second after its cancel, and
 * every (re)connect does). Arming binds the queue to an exchange of its own, durable
 * and auto-delete, to which nothing publishes: deleting the queue removes the
 * binding, and RabbitMQ deletes an auto-delete exchange with its last binding.
 * Declaring the queue again does not bring the exchange back; only arm() does, so
 * only the party that acts on a deletion may arm, and never merely on a (re)connect:
 * that would hide a deletion made while it was away.
 */
export class QueueWitness {
  private model?: ChannelModel;
  private readonly checks = new PassiveChecks();

  constructor(readonly topology: BusTopology) {}

  /** Called on every (re)connect with the new connection; it does not arm. */
  attach(model: ChannelModel): void {
    this.model = model;
    this.checks.attach(model);
    model.once('close', () => {
      if (this.model === model) this.model = undefined;
    });
  }

  /** Declares the topology as the publisher may, and binds the queue to its witness. */
  async arm(): Promise<void> {
    const model = this.model;
    if (!model) throw new Error('no RabbitMQ connection to arm the queue witness on');
    const { queue, deletionWitness } = this.topology;
    await declareSide(model, this.topology, 'publisher');
    await onOwnChannel(model, async (channel) => {
      await channel.assertExchange(deletionWitness, 'fanout', { durable: true, autoDelete: true });
      await channel.bindQueue(queue, deletionWitness, '');
    });
  }

  /**
   * Whether the queue was deleted since it was last armed and, if not, how many
   * messages were ready in it. The queue is counted before the witness is looked
   * for: a witness still there afterwards proves the count was of the armed queue.
   */
  async observe(): Promise<QueueObservation> {
    const ready = await this.checks.readyMessages(this.topology.queue);
    if (ready === undefined || !(await this.checks.exchangeExists(this.topology.deletionWitness))) return { deleted: true };
    return { deleted: false, ready };
  }
}
