import { randomUUID } from 'node:crypto';
import { GrpcStatus } from '@libs/grpc';
import { DEMO_USER_IDS } from '@libs/contracts';
import { startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { ADMIN, clinician, SchedulingCaller, setUpClinic, student } from './scheduling-client';

/** Two scheduling instances on one database: whatever the interleaving, the database decides who gets a slot. */
describe('booking under concurrency (two scheduling instances)', () => {
  let system: RunningSystem;
  let callers: SchedulingCaller[];
  let clinic: Awaited<ReturnType<typeof setUpClinic>>;
  const staff = randomUUID();

  beforeAll(async () => {
    // Fifty calls at once: enough connections for all, so that every loser is told 409 rather than 503.
    const pool = { DB_POOL_MAX: '30', DB_POOL_ACQUIRE_TIMEOUT_MS: '30000' };
    system = await startSystem({ only: ['reference', 'scheduling'], instances: { scheduling: 2 }, env: { scheduling: pool } });
    callers = [1, 2].map((instance) => new SchedulingCaller(system.grpcAddress('scheduling', instance)));
    clinic = await setUpClinic(system, callers[0], { code: 'PRM-0030', timeZone: 'Europe/London', hours: [[0, '08:00', '18:00']], staff: [staff], resources: 1 });
  }, 120_000);

  afterAll(async () => {
    for (const caller of callers ?? []) caller.close();
    await system?.shutdown();
  });

  const activeAllocations = (appointmentIds: string[]) =>
    withPgClient(system.databaseUrl('scheduling'), async (db) =>
      Number((await db.query('SELECT count(*) FROM allocation WHERE active AND appointment_id = ANY($1::uuid[])', [appointmentIds])).rows[0].count),
    );

  async function freeSlots(from: string, to: string) {
    const { slots } = await callers[0].call(ADMIN, 'searchSlots', { serviceId: clinic.serviceId, locationId: clinic.locationId, from, to });
    return slots;
  }

  it('50 concurrent holds on one slot through both instances: exactly one succeeds, one allocation is active', async () => {
    const [slot] = await freeSlots('2027-02-01', '2027-02-01');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => callers[i % 2].call(student(randomUUID()), 'holdSlot', { slotToken: slot.slotToken })),
    );
    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value.appointment] : []));
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ status: 'held', fhirStatus: 'pending', start: slot.start, version: 1, sequence: 0 });
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ code: GrpcStatus.ALREADY_EXISTS });
    }
    const ids = await withPgClient(system.databaseUrl('scheduling'), async (db) =>
      (await db.query('SELECT id::text FROM appointments WHERE resource_id = $1', [clinic.resourceIds[0]])).rows.map((r) => r.id as string),
    );
    expect(ids).toEqual([won[0].id]);
    expect(await activeAllocations(ids)).toBe(1);
  });

  it('a refused hold names the three nearest free slots, and never who holds it', async () => {
    const [slot] = await freeSlots('2027-02-02', '2027-02-02');
    const holder = randomUUID();
    await callers[0].call(student(holder), 'holdSlot', { slotToken: slot.slotToken });
    const refusal = await callers[1].refusal(student(randomUUID()), 'holdSlot', { slotToken: slot.slotToken });
    expect(refusal).toMatchObject({ code: GrpcStatus.ALREADY_EXISTS, problem: { type: 'slot_taken' } });
    const alternatives = refusal.problem?.alternatives as { start: string; slotToken: string }[];
    expect(alternatives.map((a) => a.start)).toEqual(['2027-02-02T08:30:00+00:00', '2027-02-02T09:00:00+00:00', '2027-02-02T09:30:00+00:00']);
    expect(JSON.stringify(refusal)).not.toContain(holder);
    const explained = await callers[0].call(clinician(staff), 'searchSlots', {
      serviceId: clinic.serviceId, locationId: clinic.locationId, from: '2027-02-02', to: '2027-02-02', explain: true,
    });
    expect(explained.unavailable).toContainEqual({ resourceId: clinic.resourceIds[0], start: slot.start, end: slot.end, reasons: ['held'] });
    expect(JSON.stringify(explained)).not.toContain(holder);
  });

  it('a reschedule A→B while others try A and B: never both, never neither; a refusal leaves A untouched', async () => {
    const slots = await freeSlots('2027-02-03', '2027-02-03');
    for (const round of [0, 2, 4, 6, 8]) {
      const [a, b] = [slots[round], slots[round + 1]];
      const owner = randomUUID();
      const { appointment } = await callers[0].call(student(owner), 'bookAppointment', { slotToken: a.slotToken });
      const [moved, onA, onB] = await Promise.allSettled([
        callers[round % 4 === 0 ? 0 : 1].call(student(owner), 'rescheduleAppointment', { id: appointment.id, slotToken: b.slotToken }),
        callers[1].call(student(randomUUID()), 'bookAppointment', { slotToken: a.slotToken }),
        callers[0].call(student(randomUUID()), 'bookAppointment', { slotToken: b.slotToken }),
      ]);
      const { appointment: now } = await callers[0].call(ADMIN, 'getAppointment', { id: appointment.id });
      if (moved.status === 'fulfilled') {
        expect(now).toMatchObject({ id: appointment.id, start: b.start, version: 2, sequence: 1, status: 'booked' });
        expect(onB.status).toBe('rejected');
      } else {
        expect(moved.reason).toMatchObject({ code: GrpcStatus.ALREADY_EXISTS });
        expect(now).toMatchObject({ start: a.start, version: 1, sequence: 0, status: 'booked' });
        expect(onA.status).toBe('rejected');
        expect(onB.status).toBe('fulfilled');
      }
      // Whoever won, the appointment holds exactly one of the two, and no slot has two bookings.
      const { appointments } = await callers[1].call(ADMIN, 'listAppointments', { resourceId: clinic.resourceIds[0], from: a.start, to: b.end, status: 'booked' });
      const starts = appointments.map((x) => x.start);
      expect(new Set(starts).size).toBe(starts.length);
      expect(appointments.filter((x) => x.id === appointment.id).map((x) => x.start)).toEqual([now.start]);
    }
  });

  it('a replay with the same key returns the same answer and writes nothing; the same key with another body is a conflict', async () => {
    const [first, second] = await freeSlots('2027-02-04', '2027-02-04');
    const who = student(randomUUID());
    const key = randomUUID();
    const outbox = () => withPgClient(system.databaseUrl('scheduling'), async (db) => Number((await db.query('SELECT count(*) FROM outbox')).rows[0].count));
    const original = await callers[0].call(who, 'holdSlot', { slotToken: first.slotToken, idempotencyKey: key });
    const events = await outbox();
    const replays = await Promise.all([callers[0], callers[1], callers[1]].map((caller) => caller.call(who, 'holdSlot', { slotToken: first.slotToken, idempotencyKey: key })));
    for (const replay of replays) expect(replay).toEqual(original);
    expect(await outbox()).toBe(events);
    expect(await callers[1].refusal(who, 'holdSlot', { slotToken: second.slotToken, idempotencyKey: key })).toMatchObject({ code: GrpcStatus.ALREADY_EXISTS });
    expect(await outbox()).toBe(events);
  });

  it('the default data is bookable at once: a student books a consultation, the demo clinician sees it', async () => {
    const locations = await waitFor('the demo schedules', async () => {
      const { locations: found } = await callers[0].call(ADMIN, 'listLocations', {});
      const demo = found.filter((l) => l.premiseId !== clinic.locationId);
      return demo.length === 3 ? demo : undefined;
    });
    // One zone with daylight saving, one without.
    expect(locations.map((l) => l.timeZone).sort()).toEqual(['Africa/Nairobi', 'Europe/London', 'Europe/London']);
    const { services } = await callers[0].call(student(randomUUID()), 'listServices', {});
    const consultation = services.find((s) => s.name === 'Pharmacist consultation');
    const pharmacy = locations.find((l) => l.name === 'Sample Borough High Street Pharmacy');
    const now = Date.now();
    const { slots } = await callers[0].call(student(randomUUID()), 'searchSlots', {
      serviceId: consultation?.id, locationId: pharmacy?.premiseId, from: new Date(now).toISOString(), to: new Date(now + 14 * 86_400_000).toISOString(),
    });
    expect(slots.length).toBeGreaterThan(0);
    const booker = student(randomUUID());
    const { appointment } = await callers[1].call(booker, 'holdSlot', { slotToken: slots[0].slotToken });
    expect((await callers[0].call(booker, 'confirmAppointment', { id: appointment.id, expectedVersion: 1 })).appointment).toMatchObject({ status: 'booked', version: 2 });
    const demoClinician = clinician(DEMO_USER_IDS.clinician);
    expect((await callers[0].call(demoClinician, 'listAppointments', { locationId: pharmacy?.premiseId })).appointments.map((a) => a.id)).toContain(appointment.id);
  });

  it('a student never sees another student’s appointment (NOT_FOUND), nor lists it', async () => {
    const [slot] = await freeSlots('2027-02-05', '2027-02-05');
    const [owner, other] = [student(randomUUID()), student(randomUUID())];
    const { appointment } = await callers[0].call(owner, 'bookAppointment', { slotToken: slot.slotToken });
    for (const method of ['getAppointment', 'getAppointmentHistory'] as const) {
      expect(await callers[1].refusal(other, method, { id: appointment.id })).toMatchObject({ code: GrpcStatus.NOT_FOUND });
    }
    expect(await callers[1].refusal(other, 'cancelAppointment', { id: appointment.id, reasonCode: 'pat' })).toMatchObject({ code: GrpcStatus.NOT_FOUND });
    expect((await callers[1].call(other, 'listAppointments', {})).appointments).toEqual([]);
    expect((await callers[1].call(owner, 'listAppointments', {})).appointments.map((a) => a.id)).toEqual([appointment.id]);
    // A clinician who staffs nothing sees nothing either; the one who staffs the resource sees it.
    expect(await callers[0].refusal(clinician(randomUUID()), 'getAppointment', { id: appointment.id })).toMatchObject({ code: GrpcStatus.NOT_FOUND });
    expect((await callers[0].call(clinician(staff), 'getAppointment', { id: appointment.id })).appointment?.id).toBe(appointment.id);
  });
});
