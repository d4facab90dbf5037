import { busTopology, connectBus, EVENT_STREAMS, PassiveChecks, startConsumer, TopologyKeeper, watchSubscription } from '@libs/bus';
import { CursorCodec } from '@libs/cursor';
import { ActorVerifier, startGrpcServer } from '@libs/grpc';
import { onShutdownSignal, runMain, startServiceFoundation } from '@libs/lifecycle';
import { startMetricsServer } from '@libs/metrics';
import { TrustedEventKeys } from '@libs/signing';
import { systemResolver } from '@libs/webhooks';
import { addressPolicyOf, readConfig } from './config';
import { eventMessageHandler } from './consumer/handle-event-message';
import { recipientsFromIdentity } from './consumer/identity-events';
import { mailSenderOf } from './mail/mail-setup';
import { UnsubscribeTokens } from './mail/unsubscribe-token';
import { migrations } from './migrations';
import { notificationsService } from './notifications-service';
import { DeliveryWorker } from './worker/delivery-worker';
import { scheduleRetention } from './worker/retention';

/** How often each stream's subscription is compared with what the broker reports (watchSubscription). */
const QUEUE_POLL_MS = 5_000;

async function main(): Promise<void> {
  const config = readConfig();
  const { logger, tracing, sequelize } = await startServiceFoundation('notifications', config, migrations);
  const policy = addressPolicyOf(config);
  const schedule = config.WEBHOOK_RETRY_SCHEDULE;

  const worker = new DeliveryWorker({
    sequelize,
    logger,
    policy,
    resolve: systemResolver,
    schedule,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    pollMs: config.WEBHOOK_POLL_MS,
  });

  const mail = mailSenderOf(config, logger, sequelize);
  const queued = () => {
    worker.nudge();
    mail?.nudge();
  };

  // Its own queue on each stream (finance's, scheduling's, identity's), so it gets every event whatever the audit
  // service does. Every event goes to webhooks and mail; identity's also keep the recipients read model (where mail goes).
  const publicApiUrl = config.PUBLIC_API_URL.replace(/\/+$/, '');
  const trust = new TrustedEventKeys(config.EVENT_TRUSTED_KEYS);
  const streams = EVENT_STREAMS.map((stream) => {
    const topology = busTopology(config.AMQP_NAMESPACE, stream, 'notifications');
    const keeper = new TopologyKeeper(topology);
    const extras = stream === 'identity' ? recipientsFromIdentity({ sequelize, logger }) : undefined;
    const handle = eventMessageHandler(stream, { sequelize, logger, trust, publicApiUrl, firstWaitMs: schedule[0], queued }, extras);
    return { topology, keeper, ...startConsumer({ topology: keeper, prefetch: config.CONSUMER_PREFETCH, logger, handle }) };
  });
  const checks = new PassiveChecks();
  const bus = await connectBus(config.AMQP_URL, logger, async (model) => {
    for (const { keeper, attach } of streams) {
      await keeper.attach(model);
      await attach(model);
    }
    checks.attach(model);
  });
  const watches = streams.map(({ topology, consumer }) =>
    watchSubscription({ checks, queue: topology.queue, consumer, intervalMs: QUEUE_POLL_MS }),
  );

  const deps = { sequelize, cursors: new CursorCodec(config.CURSOR_SECRET), policy, resolve: systemResolver, schedule, publicApiUrl, afterCommit: queued, unsubscribeTokens: new UnsubscribeTokens(config.UNSUBSCRIBE_SECRET) };
  const server = await startGrpcServer({
    host: config.GRPC_HOST,
    port: config.GRPC_PORT,
    logger,
    services: [notificationsService(deps, { logger, actors: new ActorVerifier('notifications', config.ACTOR_TRUSTED_KEYS) })],
  });
  worker.start();
  mail?.start();
  const stopRetention = scheduleRetention(sequelize, logger);
  const metrics = await startMetricsServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, logger });

  onShutdownSignal(logger, async () => {
    // Stop taking events and claiming deliveries; finish what is in hand, and give back the leases of the rest.
    for (const watch of watches) watch.stop();
    stopRetention();
    await Promise.all([
      ...streams.map(({ consumer }) => consumer.stop(config.SHUTDOWN_GRACE_MS / 2)),
      worker.stop(config.SHUTDOWN_GRACE_MS / 2),
      mail?.stop(config.SHUTDOWN_GRACE_MS / 2),
    ]);
    await server.shutdown(config.SHUTDOWN_GRACE_MS / 2);
    await bus.close();
    await sequelize.close();
    await metrics.close();
    await tracing.shutdown();
  }, config.SHUTDOWN_GRACE_MS);
}

runMain('notifications', main);
