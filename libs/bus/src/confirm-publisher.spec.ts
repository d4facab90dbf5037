import { EventEmitter } from 'node:events';
import type { ConfirmChannel } from 'amqplib';
import { ConfirmPublisher } from './confirm-publisher';

/** A channel whose buffer is full: it takes a message, asks the caller to wait for 'drain', never confirms. */
class FullChannel extends EventEmitter {
  publish(): boolean {
    return false;
  }
}

describe('ConfirmPublisher', () => {
  it('fails pending and waiting publishes when the channel closes, instead of hanging', async () => {
    const channel = new FullChannel();
    const publisher = new ConfirmPublisher();
    publisher.attach(channel as unknown as ConfirmChannel);

    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const first = publisher.publish('x', 'k', Buffer.from('1'), {}); // written, awaiting its confirm
    await tick();
    const second = publisher.publish('x', 'k', Buffer.from('2'), {}); // waiting for 'drain'
    const outcomes = Promise.allSettled([first, second]);
    await tick();
    channel.emit('close');

    const [firstOutcome, secondOutcome] = await outcomes;
    expect(firstOutcome).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/closed before/) },
    });
    expect(secondOutcome).toMatchObject({ status: 'rejected', reason: { message: 'no RabbitMQ channel' } });
    expect(publisher.ready).toBe(false);
  });
});
