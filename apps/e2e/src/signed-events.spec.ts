import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { busTopology, EVENT_CONSUMERS, generateEventSecrets, trustedKeysOf, type EventStream } from '@libs/bus';
import { AUDIT_SCHEMA_VERSION, DEMO_USER_IDS } from '@libs/contracts';
import { EventSigner, trustedKeyEntry } from '@libs/signing';
import { AMQP_URL, signedMessage, startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { allAuditEntries, createTransactions, waitForFinance } from './audit-helpers';
import { api } from './http';
import { scrape, total } from './metrics';

/**
 * Signed events (docs/AUDIT.md, "Signed events"): whoever can publish on the broker cannot make the audit log chain,
 * or the notifications service send on, an event its stream's producer did not sign, and a producer's key rotates
 * without losing the events signed before.
 */
describe('signed events (every service, real processes)', () => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem();
  }, 120_000);

  afterAll(async () => {
    await system?.shutdown();
  });

  const eventOf = (action: string) => ({
    eventId: randomUUID(),
    occurredAt: new Date().toISOString(),
    action,
    entityType: 'transaction',
    entityIds: [randomUUID()],
    actor: { userId: DEMO_USER_IDS.admin, role: 'admin' },
    requestId: 'forged',
    schemaVersion: AUDIT_SCHEMA_VERSION,
    subjects: [],
    before: null,
    after: null,
  });

  /** Publishes each message on its stream's exchange, as anyone with the broker's credentials can. */
  async function publish(messages: { stream: EventStream; routingKey: string; content: Buffer; options: object }[]): Promise<void> {
    const connection = await connect(AMQP_URL);
    try {
      const channel = await connection.createConfirmChannel();
      for (const { stream, routingKey, content, options } of messages) {
        channel.publish(busTopology(`${system.namespace}.`, stream).exchange, routingKey, content, options);
      }
      await channel.waitForConfirms();
    } finally {
      await connection.close();
    }
  }

  const refused = async (service: string) => {
    const metrics = await scrape(system.metricsUrl(service as 'audit'));
    const of = (reason: string) => total(metrics, `${service}_events_refused_total`, { reason });
    return { unsigned: of('unsigned'), unknown_key: of('unknown_key'), bad_signature: of('bad_signature'), wrong_producer: of('wrong_producer') };
  };

  it('refuses forged events: dead-lettered, counted in metrics, never chained or sent on', async () => {
    const stranger = { eventSecrets: generateEventSecrets() };
    const unsigned = eventOf('transaction.deleted');
    const unknownKey = eventOf('transaction.deleted');
    const schedulingsKeyOnFinance = eventOf('transaction.deleted');
    const schedulingClaimsFinance = eventOf('transaction.deleted');
    const altered = eventOf('transaction.deleted');
    const alteredMessage = signedMessage(system, 'finance', altered);
    const forgeries = [
      { stream: 'finance' as const, ...signedMessage(system, 'finance', unsigned), options: { messageId: unsigned.eventId } },
      { stream: 'finance' as const, ...signedMessage(stranger, 'finance', unknownKey) },
      { stream: 'finance' as const, ...signedMessage(system, 'scheduling', schedulingsKeyOnFinance) },
      { stream: 'scheduling' as const, ...signedMessage(system, 'scheduling', schedulingClaimsFinance) },
      { stream: 'finance' as const, ...alteredMessage, content: Buffer.from(JSON.stringify({ ...altered, actor: { userId: DEMO_USER_IDS.bursar, role: 'bursar' } })) },
    ];
    await publish(forgeries);

    const expected = { unsigned: 1, unknown_key: 1, bad_signature: 1, wrong_producer: 2 };
    for (const consumer of EVENT_CONSUMERS) {
      expect(await waitFor(`${consumer} to refuse the forgeries`, async () => {
        const counts = await refused(consumer);
        return Object.values(counts).reduce((sum, n) => sum + n, 0) >= 5 ? counts : undefined;
      })).toEqual(expected);
    }

    // A real change still goes through, signed by finance itself; none of the forgeries is in the log.
    const [id] = await createTransactions(system, 1);
    const entries = await waitFor('the real change in the audit log', async () => {
      const all = await allAuditEntries(system);
      return all.some((entry) => entry.entityIds.includes(id)) ? all : undefined;
    });
    const forgedIds = new Set(forgeries.map(({ options }) => (options as { messageId: string }).messageId));
    expect(entries.filter((entry) => forgedIds.has(entry.eventId))).toEqual([]);
    expect((await api(system.gatewayUrl, '/api/v1/audit/verify', { key: system.keys.admin })).body).toMatchObject({ intact: true });

    // Each waits in the consumers' dead-letter queues, for an operator to look at.
    const deadLetters = await waitFor('the dead letters in the audit metrics', async () => {
      const metrics = await scrape(system.metricsUrl('audit'));
      return total(metrics, 'audit_dead_letter_messages') === 5 ? metrics : undefined;
    });
    expect(total(deadLetters, 'audit_dead_letter_messages', { queue: busTopology(`${system.namespace}.`, 'scheduling').deadLetterQueue })).toBe(1);
    // The refusal is logged, with why, and never what the body holds.
    const refusals = system.logs('audit').split('\n').filter((line) => line.includes("not signed by its stream's producer"));
    expect(refusals).toHaveLength(5);
    expect(refusals.join('\n')).not.toContain(DEMO_USER_IDS.bursar);
  });

  it("rotates a producer's key without losing the events signed with the old one still in a queue", async () => {
    const newSecret = randomBytes(32).toString('base64');
    // The consumers first trust the new key beside the old one.
    const bothKeys = `${trustedKeysOf(system.eventSecrets)},${trustedKeyEntry('finance', new EventSigner('finance', newSecret).publicKey)}`;
    await system.stop('notifications');
    await system.start('notifications', { env: { EVENT_TRUSTED_KEYS: bothKeys } });
    await system.stop('audit');

    // Signed with the old key, they wait in audit's queue while finance takes its new key.
    const signedWithOld = await createTransactions(system, 3);
    await system.stop('finance');
    await system.start('finance', { env: { EVENT_SIGNING_SECRET: newSecret } });
    await waitForFinance(system);
    const signedWithNew = await createTransactions(system, 3);

    await system.start('audit', { env: { EVENT_TRUSTED_KEYS: bothKeys } });
    await waitFor('every change in the audit log', async () => {
      const ids = new Set((await allAuditEntries(system)).flatMap((entry) => entry.entityIds));
      return [...signedWithOld, ...signedWithNew].every((id) => ids.has(id)) ? true : undefined;
    });
    // Both consumers restarted with the two keys: none of these events was refused.
    const none = { unsigned: 0, unknown_key: 0, bad_signature: 0, wrong_producer: 0 };
    expect(await refused('audit')).toEqual(none);
    expect(await refused('notifications')).toEqual(none);
  });
});
