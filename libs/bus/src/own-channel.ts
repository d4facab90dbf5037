import type { Channel, ChannelModel } from 'amqplib';

/**
 * Runs `work` on a channel of its own, closed afterwards. An operation the broker
 * refuses (a declaration with other arguments, a bind to a missing queue) closes its
 * channel: on a channel of its own, that takes neither the publisher's nor the
 * consumer's channel with it.
 */
export async function onOwnChannel<T>(model: ChannelModel, work: (channel: Channel) => Promise<T>): Promise<T> {
  const channel = await model.createChannel();
  // The refusal rejects `work`; unheard, the channel's 'error' event would close the connection.
  channel.on('error', () => undefined);
  try {
    return await work(channel);
  } finally {
    await channel.close().catch(() => undefined);
  }
}
