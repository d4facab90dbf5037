import { startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { actorOf, apiFor, eventOf, startPublisher, verifyingReceiver, type NotificationsApi } from './test-webhooks';

/** Deliveries are slow enough here that a kill finds some in flight. */
const ANSWER_DELAY_MS = 300;
const TIMEOUT_MS = 1_500;

describe('two notifications instances side by side (real processes, PostgreSQL and RabbitMQ)', () => {
  let system: RunningSystem;
  let finance: Awaited<ReturnType<typeof startPublisher>>;
  let api: NotificationsApi;

  beforeAll(async () => {
    system = await startSystem({
      only: ['notifications'],
      instances: { notifications: 2 },
      env: {
        notifications: {
          WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
          WEBHOOK_RETRY_SCHEDULE: '0s,200ms,200ms,200ms',
          // Each instance takes at most 2 at once, so the endpoint's 4 places are shared between both.
          WEBHOOK_CONCURRENCY: '2',
        },
      },
    });
    finance = await startPublisher(system, 'finance');
    api = apiFor(system, actorOf('admin'), 2);
  }, 90_000);

  afterAll(async () => {
    api?.close();
    await finance?.close();
    await system?.shutdown();
  });

  it("deliver every event with at most 4 in flight to one endpoint across both; a SIGKILLed instance's claims come back, repeating only the attempts it made unrecorded", async () => {
    let secret = '';
    let open = 0;
    let mostOpen = 0;
    const receiver = await verifyingReceiver(
      () => [secret],
      (_delivery, res) => {
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        setTimeout(() => {
          open -= 1;
          res.writeHead(204).end();
        }, ANSWER_DELAY_MS);
      },
    );
    try {
      secret = (await api.createEndpoint({ url: receiver.url, eventTypes: ['transaction.created'] })).secret;
      const events = Array.from({ length: 40 }, () => eventOf({ action: 'transaction.created', entityType: 'transaction' }));
      await finance.publish(...events);
      // Mid-delivery: killed while it holds leases, which must come back to the other instance once they run out.
      const owner = /"leaseOwner":"([0-9a-f-]{36})"/.exec(system.logs('notifications', 1))?.[1];
      const leasesOf = () =>
        withPgClient(system.databaseUrl('notifications'), async (client) =>
          Number((await client.query("SELECT count(*) FROM deliveries WHERE lease_owner = $1 AND status = 'pending'", [owner])).rows[0].count),
        );
      await waitFor('instance 1 to hold leases', async () => ((await leasesOf()) > 0 ? true : undefined));
      await system.stop('notifications', 'SIGKILL', 1);
      expect(await leasesOf()).toBeGreaterThan(0);
      const delivered = () =>
        withPgClient(system.databaseUrl('notifications'), async (client) =>
          Number((await client.query("SELECT count(*) FROM deliveries WHERE status = 'delivered'")).rows[0].count),
        );
      // The killed instance's claims run out (the attempt timeout and a margin), and the other instance makes them.
      await waitFor('every delivery recorded as delivered', async () => ((await delivered()) === events.length ? true : undefined), 60_000);
      expect(await leasesOf()).toBe(0);
      const ids = new Set(receiver.verified.map((delivery) => delivery.id));
      expect([...ids].sort()).toEqual(events.map((event) => event.eventId).sort());
      expect(mostOpen).toBeLessThanOrEqual(4);
      // Only a delivery in flight at the kill may come twice (its attempt was made, not recorded).
      expect(receiver.verified.length - events.length).toBeLessThanOrEqual(4);
      expect(receiver.forged).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
