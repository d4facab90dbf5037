import type { ConfirmChannel, Message, Options } from 'amqplib';

/**
 * The broker routed a message to no queue (e.g. the queue was deleted) and sent it
 * back. Its fields come from the broker's frame, decoded from UTF-8 and at most 255
 * bytes each, so they are safe to log.
 */
export class ReturnedMessageError extends Error {
  constructor(
    readonly messageId: string,
    readonly exchange: string,
    readonly routingKey: string,
    readonly reason: string,
  ) {
    super(`RabbitMQ returned the message as unroutable (${reason})`);
    this.name = 'ReturnedMessageError';
  }
}

/** Every message names itself: a returned message is matched to its publish by messageId. */
export type PublishOptions = Options.Publish & { messageId: string };

/**
 * Publishes on a confirm channel and resolves only once the broker has taken
 * the message into a queue. Messages are mandatory: one that no queue takes is
 * returned (basic.return, just before its confirm) and its publish fails with
 * ReturnedMessageError, instead of being confirmed into nowhere. Honours
 * back-pressure: after publish() returns false, nothing more is written until
 * the channel emits 'drain'. If the channel closes first, every unconfirmed
 * publish fails, so its caller can retry it.
 */
export class ConfirmPublisher {
  private channel?: ConfirmChannel;
  private unconfirmed = new Set<(error: Error) => void>();
  /** Returns whose confirm has not come yet, by messageId. */
  private returned = new Map<string, ReturnedMessageError[]>();
  private drained: Promise<void> = Promise.resolve();
  private drainWaits = new Set<() => void>();

  attach(channel: ConfirmChannel): void {
    const unconfirmed = new Set<(error: Error) => void>();
    const returned = new Map<string, ReturnedMessageError[]>();
    this.channel = channel;
    this.unconfirmed = unconfirmed;
    this.returned = returned;
    this.drained = Promise.resolve();
    channel.on('return', (message: Message) => {
      const { messageId } = message.properties;
      if (typeof messageId !== 'string') return; // not published here: every publish carries its id
      const { exchange, routingKey, replyText } = message.fields as Message['fields'] & { replyText: string };
      returned.set(messageId, [
        ...(returned.get(messageId) ?? []),
        new ReturnedMessageError(messageId, exchange, routingKey, replyText),
      ]);
    });
    channel.on('close', () => {
      if (this.channel === channel) this.channel = undefined;
      for (const fail of unconfirmed) fail(new Error('RabbitMQ channel closed before the broker confirmed'));
      unconfirmed.clear();
      returned.clear();
      // A closed channel never drains: let every publish waiting for it go on (and fail fast).
      for (const release of this.drainWaits) release();
      this.drainWaits.clear();
    });
  }

  get ready(): boolean {
    return this.channel !== undefined;
  }

  /**
   * `signal` bounds the wait for back-pressure: a publish that cannot start
   * before it aborts is dropped, never sent late (its caller retries it).
   */
  async publish(exchange: string, routingKey: string, body: Buffer, options: PublishOptions, signal?: AbortSignal): Promise<void> {
    await untilDrainedOr(this.drained, signal);
    const channel = this.channel;
    if (!channel) throw new Error('no RabbitMQ channel');
    const { unconfirmed, returned } = this;
    await new Promise<void>((resolve, reject) => {
      unconfirmed.add(reject);
      const accepted = channel.publish(
        exchange,
        routingKey,
        body,
        { persistent: true, ...options, mandatory: true },
        (error) => {
          unconfirmed.delete(reject);
          const returnedAs = takeFirst(returned, options.messageId);
          if (error) reject(error instanceof Error ? error : new Error('message was nacked by the broker'));
          else if (returnedAs) reject(returnedAs);
          else resolve();
        },
      );
      if (!accepted) {
        this.drained = new Promise((release) => {
          this.drainWaits.add(release);
          channel.once('drain', () => {
            this.drainWaits.delete(release);
            release();
          });
        });
      }
    });
  }
}

/**
 * The broker sends a message's return just before its confirm, so a confirm takes
 * the return waiting under its messageId. Should two publishes with the same id be
 * in flight, the pairing may swap them; both carry the same message, so whichever
 * one failed, the message is retried and whichever one succeeded, it was queued.
 */
function takeFirst(returned: Map<string, ReturnedMessageError[]>, messageId: string): ReturnedMessageError | undefined {
  const [first, ...rest] = returned.get(messageId) ?? [];
  if (rest.length > 0) returned.set(messageId, rest);
  else returned.delete(messageId);
  return first;
}

function untilDrainedOr(drained: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return drained;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    drained.then(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    });
  });
}
