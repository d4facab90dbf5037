import { randomUUID } from 'node:crypto';
import { AUDIT_SCHEMA_VERSION, AUDITED_ENTITIES, auditV1, EVENT_TYPES, type AuditedEntityType } from '@libs/contracts';
import { callUnary, createClient, outgoingMetadata } from '@libs/grpc';
import { actingAs, startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { ADMIN, SchedulingCaller, setUpClinic, student } from './scheduling-client';

/**
 * Every scheduling change reaches the audit log exactly once, through the outbox, the exchange
 * scheduling.events and the queue audit.scheduling-events, into the same hash chain as finance's; also when
 * the service dies after its commits and before it published anything.
 */
describe('scheduling changes in the audit log', () => {
  let system: RunningSystem;
  let caller: SchedulingCaller;
  let audit: auditV1.AuditServiceClient;

  beforeAll(async () => {
    // The relay is off at first: every event stays in the outbox, committed and unpublished.
    system = await startSystem({ only: ['reference', 'audit', 'scheduling'], env: { scheduling: { OUTBOX_RELAY_ENABLED: 'false', HOLD_SWEEP_MS: '200' } } });
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
    audit = createClient(auditV1.AuditServiceClient, system.grpcAddress('audit'));
  }, 120_000);

  afterAll(async () => {
    caller?.close();
    audit?.close();
    await system?.shutdown();
  });

  const entries = async (query: Partial<auditV1.ListEntriesRequest>) =>
    (
      await callUnary(audit.listEntries.bind(audit), auditV1.ListEntriesRequest.fromPartial({ limit: 500, ...query }), {
        metadata: outgoingMetadata({ acting: actingAs(ADMIN, 'audit', audit.listEntries) }),
        timeoutMs: 10_000,
      })
    ).entries;

  it('one event per change, the sweeper’s included, after a kill between commit and publish', async () => {
    const clinic = await setUpClinic(system, caller, { code: 'PRM-0038', timeZone: 'Europe/London', hours: [[0, '09:00', '17:00']], policy: { holdTtlSeconds: 1 } });
    const { slots } = await caller.call(ADMIN, 'searchSlots', { serviceId: clinic.serviceId, locationId: clinic.locationId, from: '2027-05-03', to: '2027-05-03' });
    const owner = student(randomUUID());
    const booked = (await caller.call(owner, 'bookAppointment', { slotToken: slots[0].slotToken })).appointment;
    await caller.call(owner, 'rescheduleAppointment', { id: booked.id, slotToken: slots[1].slotToken });
    await caller.call(owner, 'cancelAppointment', { id: booked.id, reasonCode: 'pat-cpp', reasonText: 'exams' });
    const held = (await caller.call(student(randomUUID()), 'holdSlot', { slotToken: slots[2].slotToken })).appointment;
    await waitFor('the sweeper to expire the hold', async () =>
      (await caller.call(ADMIN, 'getAppointment', { id: held.id })).appointment?.status === 'cancelled' ? true : undefined,
    );
    const pending = await withPgClient(system.databaseUrl('scheduling'), async (db) =>
      Number((await db.query('SELECT count(*) FROM outbox WHERE published_at IS NULL')).rows[0].count),
    );
    // location, service, resource, rules; booked, rescheduled, cancelled; held, expired.
    expect(pending).toBe(9);

    expect(await system.stop('scheduling', 'SIGKILL')).toBeNull();
    await system.start('scheduling', { env: { OUTBOX_RELAY_ENABLED: 'true' } });

    const appointmentEvents = await waitFor('the appointment events in the audit log', async () => {
      const found = await entries({ entityType: 'appointment' });
      return found.length >= 5 ? found : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // any duplicate would have arrived by now
    const again = await entries({ entityType: 'appointment' });
    expect(again.map((e) => e.eventId).sort()).toEqual(appointmentEvents.map((e) => e.eventId).sort());
    expect(again.filter((e) => e.entityIds[0] === booked.id).map((e) => e.action).reverse()).toEqual([
      'appointment.booked',
      'appointment.rescheduled',
      'appointment.cancelled',
    ]);
    expect(again.filter((e) => e.entityIds[0] === held.id).map((e) => [e.action, e.actor?.role])).toEqual([
      ['appointment.expired', 'system'],
      ['appointment.held', 'student'],
    ]);
    const config = await entries({ actorId: ADMIN.userId });
    expect(config.map((e) => e.entityType).sort()).toEqual(['location', 'resource', 'schedule', 'service']);
    // Each before/after is its entity's JSON shape, of the current version: no field more, none less. Each action is a
    // declared event type (what webhooks subscribe to), of this entity.
    for (const entry of [...again, ...config]) {
      expect([entry.action, entry.schemaVersion]).toEqual([entry.action, AUDIT_SCHEMA_VERSION]);
      expect([entry.action, EVENT_TYPES[entry.action as keyof typeof EVENT_TYPES]]).toEqual([entry.action, expect.objectContaining({ entityType: entry.entityType })]);
      const schema = AUDITED_ENTITIES[entry.entityType as AuditedEntityType].schema.strict();
      for (const snapshot of [JSON.parse(entry.beforeJson), JSON.parse(entry.afterJson)].filter((s) => s !== null)) {
        expect([entry.action, schema.parse(snapshot)]).toEqual([entry.action, snapshot]);
      }
    }
    const verify = await callUnary(audit.verifyChain.bind(audit), {}, { metadata: outgoingMetadata({ acting: actingAs(ADMIN, 'audit', audit.verifyChain) }), timeoutMs: 10_000 });
    expect(verify).toMatchObject({ intact: true });
  });
});
