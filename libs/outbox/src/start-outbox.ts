import type { Sequelize } from 'sequelize';
import { ConfirmPublisher, connectBus, consumerTopologies, QueueWitness, TopologyKeeper, type EventStream } from '@libs/bus';
import type { Logger } from '@libs/logging';
import { EventSigner, trustedKeyEntry } from '@libs/signing';
import { AuditQueueWatch } from './audit-queue-watch';
import { registerOutboxBacklog } from './outbox-metrics';
import { schedulePruning } from './outbox-pruner';
import { OutboxRelay } from './outbox-relay';

/** The OUTBOX_* settings of a service that publishes its changes (libs/config outboxFields). */
export interface OutboxSettings {
  AMQP_URL: string;
  AMQP_NAMESPACE: string;
  EVENT_SIGNING_SECRET: string;
  OUTBOX_BATCH_SIZE: number;
  OUTBOX_POLL_MS: number;
  OUTBOX_LEASE_MS: number;
  OUTBOX_RELAY_ENABLED: boolean;
  OUTBOX_RETENTION_HOURS: number;
  OUTBOX_QUEUE_CHECK_MS: number;
}

export interface RunningOutbox {
  /** Called after a commit that wrote outbox rows, so the relay sends them at once. */
  nudge(): void;
  /** Stops relaying; rows still in the outbox are published by the next relay to run. */
  stop(): Promise<void>;
}

/**
 * Everything a service needs to get its outbox rows, signed as `stream`'s producer, to its consumers' queues
 * (consumerTopologies: the first is the one the relay publishes by, all on one exchange): the RabbitMQ connection
 * (every consumer's topology declared on every reconnect), a confirming publisher, the relay, a watch on each
 * consumer's queue, pruning and the backlog metrics. Operators may run the relay (with pruning and the queue watch) in separate instances
 * (OUTBOX_RELAY_ENABLED=false on the others): rows then wait for them.
 */
export async function startOutbox(
  sequelize: Sequelize,
  stream: EventStream,
  settings: OutboxSettings,
  logger: Logger,
): Promise<RunningOutbox> {
  const topologies = consumerTopologies(settings.AMQP_NAMESPACE, stream);
  const [topology, ...others] = topologies;
  const keeper = new TopologyKeeper(topology, others, 'publisher');
  const witnesses = topologies.map((each) => new QueueWitness(each));
  const publisher = new ConfirmPublisher();
  const bus = await connectBus(settings.AMQP_URL, logger, async (model) => {
    await keeper.attach(model);
    for (const witness of witnesses) witness.attach(model);
    publisher.attach(await model.createConfirmChannel());
  });
  const signer = new EventSigner(stream, settings.EVENT_SIGNING_SECRET);
  // The entry the consumers' EVENT_TRUSTED_KEYS must hold: public, so an operator may copy it from here.
  logger.info({ keyId: signer.publicKey.keyId, trustedAs: trustedKeyEntry(stream, signer.publicKey) }, 'signing events with this key');
  const relay = new OutboxRelay(sequelize, publisher, keeper, logger, {
    batchSize: settings.OUTBOX_BATCH_SIZE,
    pollMs: settings.OUTBOX_POLL_MS,
    leaseMs: settings.OUTBOX_LEASE_MS,
    signer,
  });
  const queueWatches = witnesses.map((witness) => new AuditQueueWatch(sequelize, witness, logger, settings.OUTBOX_QUEUE_CHECK_MS));
  const stopPruning = settings.OUTBOX_RELAY_ENABLED
    ? schedulePruning(sequelize, settings.OUTBOX_RETENTION_HOURS, logger)
    : () => undefined;
  if (settings.OUTBOX_RELAY_ENABLED) {
    relay.start();
    for (const watch of queueWatches) watch.start();
  }
  registerOutboxBacklog(sequelize);
  return {
    nudge: () => relay.nudge(),
    stop: async () => {
      stopPruning();
      await Promise.all(queueWatches.map((watch) => watch.stop()));
      await relay.stop();
      await bus.close();
    },
  };
}
