import { AMQP_URL, startSystem, startTcpProxy, waitFor, withPgClient, type RunningSystem, type TcpProxy } from '@libs/testing';
import { createTransactions } from '../audit-helpers';
import { api, validTransaction } from '../http';
import { scrape, total } from '../metrics';
import { ReceivingEndpoint, type Tally } from './receiving-endpoint';
import { webhookApi } from './webhook-helpers';

jest.setTimeout(240_000);

const MUTATIONS = 500;
/** Short, and long enough (47.5 s in all) to outlast the receiver's 30 s outage. */
const RETRY_SCHEDULE = '0s,500ms,1s,2s,4s,8s,16s,16s';
const TIMEOUT_MS = 2_000;
/** The fault cases' receivers answer this late, so a kill finds deliveries in flight. */
const ANSWER_DELAY_MS = 50;
const OUTAGE_MS = 30_000;
/** Events per phase of the fairness test, posted one at a time this far apart: a steady trickle, not a burst. */
const FAIRNESS_EVENTS = 60;
const FAIRNESS_GAP_MS = 40;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 23's fault tests and fairness test, against the real processes of the whole system through the gateway, each
 * delivery verified by the published `standardwebhooks` package. The cases share one system and run in order: two
 * notifications instances, then one killed, the receivers down, the broker cut; each makes 500 mutations, of which
 * none may be lost to any endpoint that should get it, and counts (and prints) the repeated `webhook-id`s.
 */
describe('webhook delivery under faults, and fairness (real processes; receivers verify with standardwebhooks)', () => {
  let system: RunningSystem;
  let broker: TcpProxy;
  const endpoints: ReceivingEndpoint[] = [];
  const duplicates: Record<string, number> = {};

  const endpoint = async (...args: Parameters<typeof ReceivingEndpoint.create>) => {
    const made = await ReceivingEndpoint.create(...args);
    endpoints.push(made);
    return made;
  };

  beforeAll(async () => {
    broker = await startTcpProxy(AMQP_URL);
    const viaProxy = { AMQP_URL: broker.proxiedUrl(AMQP_URL) };
    system = await startSystem({
      instances: { notifications: 2 },
      env: {
        finance: viaProxy,
        notifications: { ...viaProxy, WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
      },
    });
  }, 120_000);

  afterAll(async () => {
    console.info(`webhook-id repeats received, per fault case and endpoint: ${JSON.stringify(duplicates)}`);
    for (const made of endpoints) await made.close();
    await system?.shutdown();
    await broker?.close();
  });

  it("keeps a healthy endpoint's lag within 2x its quiet lag (medians) while one endpoint hangs and one answers 500", async () => {
    const admin = webhookApi(system, system.keys.admin);
    const healthy = await endpoint('healthy', admin, ['transaction.created']);
    /** Posts the events one at a time and answers each one's lag from its commit (occurredAt) to its receipt. */
    const lags = async () => {
      const ids: string[] = [];
      for (let i = 0; i < FAIRNESS_EVENTS; i += 1) {
        const created = await api(system.gatewayUrl, '/api/v1/transactions', { method: 'POST', key: system.keys.bursar, body: validTransaction({ payee: `Fairness ${i}` }) });
        expect(created.status).toBe(201);
        ids.push(created.body.id);
        await sleep(FAIRNESS_GAP_MS);
      }
      await waitFor('the healthy endpoint to receive every event', async () => (healthy.tally(ids).missing.length === 0 ? true : undefined), 60_000);
      const wanted = new Set(ids);
      return healthy
        .verified()
        .filter((delivery) => wanted.has(delivery.data.object.id ?? ''))
        .map((delivery) => delivery.receivedAt - Date.parse(delivery.occurredAt));
    };

    const quiet = await lags();
    let hangingOpen = 0;
    const hanging = await endpoint('hanging', admin, ['transaction.created'], () => void (hangingOpen += 1));
    const failing = await endpoint('failing', admin, ['transaction.created'], (_delivery, res) => void res.writeHead(500).end('down for maintenance'));
    const loaded = await lags();

    // The others really were misbehaving all along: the hanging one held its connections, the failing one was retried.
    expect(hangingOpen).toBeGreaterThan(0);
    expect(failing.verified().length).toBeGreaterThan(FAIRNESS_EVENTS);
    console.info(`healthy endpoint's lag, median of ${FAIRNESS_EVENTS}: quiet ${median(quiet)} ms, beside a hanging and a failing endpoint ${median(loaded)} ms`);
    expect(median(loaded)).toBeLessThanOrEqual(2 * median(quiet));
    for (const made of [healthy, hanging, failing]) expect((await admin.remove(made.id)).status).toBe(204);
  });

  describe('500 mutations per fault, none lost', () => {
    let admin: ReceivingEndpoint;
    let bursar: ReceivingEndpoint;
    let reader: ReceivingEndpoint;
    const slowly = (_delivery: unknown, res: { writeHead(status: number): { end(): void } }) =>
      void setTimeout(() => res.writeHead(204).end(), ANSWER_DELAY_MS);

    beforeAll(async () => {
      admin = await endpoint('admin', webhookApi(system, system.keys.admin), ['*'], slowly);
      bursar = await endpoint('bursar', webhookApi(system, system.keys.bursar), ['transaction.created'], slowly);
      // A reader may not read transactions: its endpoint, subscribed to everything, must get none of them.
      reader = await endpoint('reader', webhookApi(system, system.keys.reader), ['*'], slowly);
    });

    /** Every endpoint that should get the events gets each one; the reader gets none; repeats are recorded. */
    async function expectEveryOneDelivered(fault: string, ids: string[]): Promise<void> {
      expect(ids).toHaveLength(MUTATIONS);
      for (const receiving of [admin, bursar]) {
        const tally = await waitFor<Tally>(
          `${receiving.name}'s endpoint to receive all ${ids.length} events of "${fault}"`,
          async () => {
            const now = receiving.tally(ids);
            return now.missing.length === 0 ? now : undefined;
          },
          120_000,
        );
        expect(tally.events).toBe(ids.length);
        expect(receiving.forged()).toEqual([]);
        duplicates[`${fault} / ${receiving.name}`] = tally.duplicates;
      }
      expect(reader.tally(ids).events).toBe(0);
    }

    const deliveredBy = async (instance: number) =>
      total(await scrape(system.metricsUrl('notifications', instance)), 'notifications_delivery_attempts_total', { outcome: 'delivered' });

    it('two notifications instances deliver side by side: every event once to each endpoint, by both', async () => {
      const before = await Promise.all([1, 2].map(deliveredBy));
      const ids = await createTransactions(system, MUTATIONS);
      await expectEveryOneDelivered('two instances', ids);
      const after = await Promise.all([1, 2].map(deliveredBy));
      for (const i of [0, 1]) expect(after[i] - before[i]).toBeGreaterThan(0);
      // The other cases run on one instance, so that a kill leaves no one else to deliver.
      expect(await system.stop('notifications', 'SIGTERM', 2)).toBe(0);
    });

    it('notifications is killed with SIGKILL mid-delivery and restarted: everything still arrives', async () => {
      const posting = createTransactions(system, MUTATIONS);
      await waitFor('deliveries of the new events under way', async () => (admin.verified().length > 0 && (await leasedPending()) > 0 ? true : undefined));
      expect(await system.stop('notifications', 'SIGKILL')).toBeNull();
      // Killed holding leases: attempts in flight that were never recorded.
      expect(await leasedPending()).toBeGreaterThan(0);
      const ids = await posting;
      await system.start('notifications');
      await expectEveryOneDelivered('SIGKILL', ids);
    });

    it('the receivers are down for 30 s, then up: everything arrives, retried', async () => {
      for (const receiving of [admin, bursar, reader]) await receiving.down();
      const downAt = Date.now();
      const ids = await createTransactions(system, MUTATIONS);
      await sleep(downAt + OUTAGE_MS - Date.now());
      expect(admin.tally(ids).events + bursar.tally(ids).events).toBe(0);
      for (const receiving of [admin, bursar, reader]) await receiving.up();
      await expectEveryOneDelivered('receivers down 30 s', ids);
    });

    it('the broker connection of finance and notifications is cut during the mutations: everything arrives', async () => {
      const duringCut = await createTransactions(system, MUTATIONS - 100, { onProgress: (done) => done === 100 && broker.cut() });
      // Nothing could be published since the cut: the events wait in finance's outbox.
      expect(await unpublished()).toBeGreaterThanOrEqual(250);
      broker.restore();
      const afterCut = await createTransactions(system, 100);
      await expectEveryOneDelivered('broker cut', [...duringCut, ...afterCut]);
      expect(await unpublished()).toBe(0);
    });

    const leasedPending = () =>
      withPgClient(system.databaseUrl('notifications'), async (client) =>
        Number((await client.query("SELECT count(*) FROM deliveries WHERE status = 'pending' AND lease_until > now()")).rows[0].count),
      );
    const unpublished = () =>
      withPgClient(system.databaseUrl('finance'), async (client) =>
        Number((await client.query('SELECT count(*) FROM outbox WHERE published_at IS NULL')).rows[0].count),
      );
  });
});
