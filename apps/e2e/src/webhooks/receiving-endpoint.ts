/** An endpoint registered through the gateway with a real receiver behind it that a test can take down and bring back. */
import type http from 'node:http';
import { verifyingReceiver, type ReceivedDelivery, type VerifiedDelivery } from '@libs/testing';
import type { WebhookApi } from './webhook-helpers';

type Answer = (delivery: ReceivedDelivery, res: http.ServerResponse) => void;

/** What reached an endpoint of a set of entity ids: which never arrived, and how often a `webhook-id` came again. */
export interface Tally {
  missing: string[];
  /** Distinct events (webhook-ids) received. */
  events: number;
  /** Receipts beyond the first of each webhook-id: the at-least-once repeats a receiver deduplicates. */
  duplicates: number;
}

export class ReceivingEndpoint {
  /** Verified deliveries of every life of the receiver, in order of receipt. */
  private readonly earlier: VerifiedDelivery[] = [];

  private constructor(
    readonly name: string,
    readonly id: string,
    private receiver: Awaited<ReturnType<typeof verifyingReceiver>>,
    private readonly secret: { value: string },
    private readonly answer: Answer | undefined,
  ) {}

  /** Starts a receiver (answering 204 unless `answer` says otherwise) and registers it for `eventTypes`. */
  static async create(name: string, webhooks: WebhookApi, eventTypes: string[], answer?: Answer): Promise<ReceivingEndpoint> {
    const secret = { value: '' };
    const receiver = await verifyingReceiver(() => [secret.value], answer);
    const created = await webhooks.create({ url: receiver.url, eventTypes });
    if (created.status !== 201) throw new Error(`creating ${name}'s endpoint answered ${created.status}: ${JSON.stringify(created.body)}`);
    secret.value = created.body.secret;
    return new ReceivingEndpoint(name, created.body.id, receiver, secret, answer);
  }

  verified(): VerifiedDelivery[] {
    return [...this.earlier, ...this.receiver.verified];
  }

  /** Deliveries that did not verify: must stay empty. */
  forged(): ReceivedDelivery[] {
    return this.receiver.forged;
  }

  /** Closes the socket: connections are refused until up(). */
  async down(): Promise<void> {
    this.earlier.push(...this.receiver.verified.splice(0));
    await this.receiver.close();
  }

  /** Listens again on the same port, as a receiver back from an outage. */
  async up(): Promise<void> {
    this.receiver = await verifyingReceiver(() => [this.secret.value], this.answer, { port: this.receiver.port });
  }

  close(): Promise<void> {
    return this.receiver.close();
  }

  /** Of the deliveries about `entityIds` (their `data.object.id`), what arrived and what came twice. */
  tally(entityIds: readonly string[]): Tally {
    const wanted = new Set(entityIds);
    const about = this.verified().filter((delivery) => wanted.has(delivery.data.object.id ?? ''));
    const arrived = new Set(about.map((delivery) => delivery.data.object.id));
    const events = new Set(about.map((delivery) => delivery.id)).size;
    return { missing: entityIds.filter((id) => !arrived.has(id)), events, duplicates: about.length - events };
  }
}
