import { connect, type ChannelModel, type RecoveringChannelModel } from 'amqplib';
import type { Logger } from '@libs/logging';

export interface BusConnection {
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * Connects with amqplib's recovery: on every (re)connect `setup` runs again, so
 * channels, topology and consumers come back by themselves. Start-up does not
 * wait for the broker; callers see `connected` and cope (the outbox simply waits).
 */
export async function connectBus(
  url: string,
  logger: Logger,
  setup: (model: ChannelModel) => Promise<void>,
): Promise<BusConnection> {
  let connected = false;
  const model: RecoveringChannelModel = await connect(url, {
    recovery: {
      initialDelay: 200,
      maxDelay: 5_000,
      waitForConnect: false,
      setup: async (channelModel: ChannelModel) => {
        await setup(channelModel);
        connected = true;
      },
    },
  });
  model.on('connect', () => logger.info('connected to RabbitMQ'));
  model.on('disconnect', (error: Error) => {
    connected = false;
    logger.warn({ err: error }, 'lost the RabbitMQ connection; reconnecting');
  });
  model.on('connect-failed', (error: Error) => logger.warn({ err: error }, 'cannot reach RabbitMQ yet; retrying'));
  model.on('error', (error: Error) => logger.warn({ err: error }, 'RabbitMQ connection error'));
  return {
    get connected() {
      return connected;
    },
    close: async () => {
      connected = false;
      await model.close().catch(() => undefined);
    },
  };
}
