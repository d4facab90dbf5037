import { randomUUID } from 'node:crypto';
import { GrpcStatus } from '@libs/grpc';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { ADMIN, clinician, SchedulingCaller, setUpClinic, student, TEST_POLICY } from './scheduling-client';

const NEVER_SWEEPS = { HOLD_SWEEP_MS: '600000' };

/** Holds that run out, the policy's rules and the state machine, against a real scheduling process. */
describe('appointment lifecycle', () => {
  let system: RunningSystem;
  let caller: SchedulingCaller;
  const staff = randomUUID();

  beforeAll(async () => {
    system = await startSystem({ only: ['reference', 'scheduling'], instances: { scheduling: 2 }, env: { scheduling: NEVER_SWEEPS } });
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
  }, 120_000);

  afterAll(async () => {
    caller?.close();
    await system?.shutdown();
  });

  const slotsOf = async (clinic: { serviceId: string; locationId: string }, from: string, to: string) =>
    (await caller.call(ADMIN, 'searchSlots', { serviceId: clinic.serviceId, locationId: clinic.locationId, from, to })).slots;

  describe('hold expiry (database clock)', () => {
    let clinic: Awaited<ReturnType<typeof setUpClinic>>;
    beforeAll(async () => {
      clinic = await setUpClinic(system, caller, { code: 'PRM-0036', timeZone: 'Africa/Nairobi', hours: [[0, '08:00', '18:00']], policy: { holdTtlSeconds: 1 } });
    });

    it('a confirm after expiry is refused as expired, and another student books the slot before any sweep', async () => {
      const [slot] = await slotsOf(clinic, '2027-03-01', '2027-03-01');
      const first = student(randomUUID());
      const { appointment: hold } = await caller.call(first, 'holdSlot', { slotToken: slot.slotToken });
      expect(hold?.holdExpiresAt).not.toBe('');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await caller.refusal(first, 'confirmAppointment', { id: hold.id })).toMatchObject({
        code: GrpcStatus.FAILED_PRECONDITION,
        problem: { type: 'hold_expired' },
      });
      const { appointment: taken } = await caller.call(student(randomUUID()), 'bookAppointment', { slotToken: slot.slotToken });
      expect(taken).toMatchObject({ status: 'booked', start: slot.start });
      // The booker reclaimed the expired hold in its own transaction.
      const { appointment: expired } = await caller.call(ADMIN, 'getAppointment', { id: hold.id });
      // TENTATIVE → CANCELLED in the calendar: SEQUENCE grows (RFC 5545 §3.8.7.4).
      expect(expired).toMatchObject({ status: 'cancelled', sequence: 1, cancellation: { reasonCode: 'expired', cancelledByRole: 'system' } });
      expect(await caller.refusal(first, 'confirmAppointment', { id: hold.id })).toMatchObject({ problem: { type: 'hold_expired' } });
    });

    it('confirms racing the sweeper: each hold ends exactly one way', async () => {
      // A second instance sweeps every 100 ms from now on, while the confirms arrive around the expiry.
      expect(await system.stop('scheduling', 'SIGTERM', 2)).toBe(0); // a graceful stop
      await system.start('scheduling', { instance: 2, env: { HOLD_SWEEP_MS: '100' } });
      const slots = (await slotsOf(clinic, '2027-03-02', '2027-03-02')).slice(0, 12);
      await caller.call(ADMIN, 'updateService', { id: clinic.serviceId, policy: { ...TEST_POLICY, holdTtlSeconds: 2 } });
      const fresh = (await slotsOf(clinic, '2027-03-02', '2027-03-02')).slice(0, 12);
      expect(fresh.map((s) => s.start)).toEqual(slots.map((s) => s.start));
      const holders = fresh.map(() => student(randomUUID()));
      const holds = await Promise.all(fresh.map((slot, i) => caller.call(holders[i], 'holdSlot', { slotToken: slot.slotToken })));
      const outcomes = await Promise.allSettled(
        holds.map(async ({ appointment }, i) => {
          await new Promise((resolve) => setTimeout(resolve, 1_700 + i * 50));
          return caller.call(holders[i], 'confirmAppointment', { id: appointment.id });
        }),
      );
      for (const [i, outcome] of outcomes.entries()) {
        const { appointment } = await caller.call(ADMIN, 'getAppointment', { id: holds[i].appointment.id });
        const { entries } = await caller.call(ADMIN, 'getAppointmentHistory', { id: holds[i].appointment.id });
        if (outcome.status === 'fulfilled') {
          expect(appointment).toMatchObject({ status: 'booked', sequence: 1 });
          expect(entries.map((e) => e.action)).toEqual(['held', 'confirmed']);
        } else {
          expect(outcome.reason).toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION });
          expect(appointment).toMatchObject({ status: 'cancelled', sequence: 1, cancellation: { reasonCode: 'expired' } });
          expect(entries.map((e) => e.action)).toEqual(['held', 'expired']);
        }
      }
      // Left alone, the sweeper expires a hold by itself.
      const [lone] = await slotsOf(clinic, '2027-03-03', '2027-03-03');
      const { appointment: left } = await caller.call(student(randomUUID()), 'holdSlot', { slotToken: lone.slotToken });
      await waitFor('the sweeper to expire the hold', async () =>
        (await caller.call(ADMIN, 'getAppointment', { id: left.id })).appointment?.status === 'cancelled' ? true : undefined,
      );
    }, 120_000);
  });

  it('a student cannot be in two places at once', async () => {
    const clinic = await setUpClinic(system, caller, { code: 'PRM-0040', timeZone: 'Europe/Paris', hours: [[0, '09:00', '12:00']], resources: 2 });
    const { slots } = await caller.call(ADMIN, 'searchSlots', { serviceId: clinic.serviceId, locationId: clinic.locationId, from: '2027-06-01', to: '2027-06-01' });
    const [first, second] = [slots[0], slots[1]];
    expect([first.start, first.resourceId === second.resourceId]).toEqual([second.start, false]);
    const who = student(randomUUID());
    await caller.call(who, 'bookAppointment', { slotToken: first.slotToken });
    expect(await caller.refusal(who, 'holdSlot', { slotToken: second.slotToken })).toMatchObject({ code: GrpcStatus.ALREADY_EXISTS, problem: { type: 'student_busy' } });
    // Someone else may have that resource then.
    expect((await caller.call(student(randomUUID()), 'holdSlot', { slotToken: second.slotToken })).appointment.status).toBe('held');
  });

  describe('policy and states', () => {
    let clinic: Awaited<ReturnType<typeof setUpClinic>>;
    beforeAll(async () => {
      clinic = await setUpClinic(system, caller, {
        code: 'PRM-0037', timeZone: 'UTC', hours: [[0, '00:00', '24:00']], durationMinutes: 10, staff: [staff],
        policy: { cancelCutoffMinutes: 120, noShowGraceMinutes: 15, checkInWindowMinutes: 30 },
      });
    });

    /** A booking on the first slot starting in the next minutes: past its cut-off already. */
    async function bookSoon(owner: ReturnType<typeof student>, skip = 0) {
      const now = Date.now();
      const slots = await slotsOf(clinic, new Date(now).toISOString(), new Date(now + 3_600_000).toISOString());
      return (await caller.call(owner, 'bookAppointment', { slotToken: slots[skip].slotToken })).appointment;
    }

    it('a student cannot cancel after the cut-off (the rule is named); a clinician can, flagged late', async () => {
      const owner = student(randomUUID());
      const appointment = await bookSoon(owner);
      expect(await caller.refusal(owner, 'cancelAppointment', { id: appointment.id, reasonCode: 'pat' })).toMatchObject({
        code: GrpcStatus.OUT_OF_RANGE,
        problem: { type: 'policy', rule: 'cancel_cutoff' },
      });
      expect(await caller.refusal(clinician(staff), 'cancelAppointment', { id: appointment.id, reasonCode: 'pat', expectedVersion: 7 })).toMatchObject({
        code: GrpcStatus.ABORTED,
      });
      const { appointment: cancelled } = await caller.call(clinician(staff), 'cancelAppointment', { id: appointment.id, reasonCode: 'pat', expectedVersion: 1 });
      expect(cancelled).toMatchObject({ status: 'cancelled', version: 2, sequence: 1, cancellation: { reasonCode: 'pat', late: true, cancelledByRole: 'clinician' } });
      expect(await caller.refusal(clinician(staff), 'cancelAppointment', { id: appointment.id, reasonCode: 'pat' })).toMatchObject({
        code: GrpcStatus.FAILED_PRECONDITION,
        problem: { type: 'illegal_transition', currentStatus: 'cancelled', allowedFrom: ['held', 'booked'] },
      });
      expect(await caller.refusal(clinician(staff), 'cancelAppointment', { id: appointment.id, reasonCode: 'because' })).toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
    });

    it('no-show only after the start plus the grace; check-in in its window, then complete', async () => {
      const appointment = await bookSoon(student(randomUUID()), 1);
      expect(await caller.refusal(clinician(staff), 'markNoShow', { id: appointment.id })).toMatchObject({
        code: GrpcStatus.OUT_OF_RANGE,
        problem: { type: 'policy', rule: 'no_show_grace' },
      });
      expect(await caller.refusal(clinician(randomUUID()), 'checkInAppointment', { id: appointment.id })).toMatchObject({ code: GrpcStatus.NOT_FOUND });
      const { appointment: checkedIn } = await caller.call(clinician(staff), 'checkInAppointment', { id: appointment.id });
      expect(checkedIn).toMatchObject({ status: 'checked_in', fhirStatus: 'checked-in' });
      const { appointment: done } = await caller.call(clinician(staff), 'completeAppointment', { id: appointment.id });
      expect(done).toMatchObject({ status: 'fulfilled', version: 3 });
      const { entries } = await caller.call(ADMIN, 'getAppointmentHistory', { id: appointment.id });
      expect(entries.map((e) => [e.version, e.action, e.status])).toEqual([[1, 'booked', 'booked'], [2, 'checked_in', 'checked_in'], [3, 'completed', 'fulfilled']]);
      expect(await caller.refusal(student(randomUUID()), 'checkInAppointment', { id: appointment.id })).toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
    });

    it('a block over an appointment names it, or cancels it in the same transaction when asked', async () => {
      const appointment = await bookSoon(student(randomUUID()), 3);
      const block = { resourceId: clinic.resourceIds[0], start: appointment.start, end: appointment.end, reason: 'staff training' };
      const refusal = await caller.refusal(clinician(staff), 'createBlock', block);
      expect(refusal).toMatchObject({ code: GrpcStatus.FAILED_PRECONDITION, problem: { type: 'overlapping_appointments', appointments: [{ id: appointment.id, status: 'booked' }], more: 0 } });
      expect(await caller.refusal(clinician(randomUUID()), 'createBlock', block)).toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
      const created = await caller.call(clinician(staff), 'createBlock', { ...block, cancelOverlapping: true });
      expect(created.cancelledAppointmentIds).toEqual([appointment.id]);
      expect((await caller.call(ADMIN, 'getAppointment', { id: appointment.id })).appointment).toMatchObject({ status: 'cancelled', cancellation: { reasonCode: 'prov' } });
      const explained = await caller.call(clinician(staff), 'searchSlots', {
        serviceId: clinic.serviceId, resourceId: clinic.resourceIds[0], from: appointment.start, to: appointment.end, explain: true,
      });
      expect(explained.unavailable).toContainEqual(expect.objectContaining({ start: appointment.start, reasons: ['blocked'] }));
      expect(await caller.refusal(student(randomUUID()), 'searchSlots', { serviceId: clinic.serviceId, resourceId: clinic.resourceIds[0], from: appointment.start, to: appointment.end, explain: true })).toMatchObject({
        code: GrpcStatus.PERMISSION_DENIED,
      });
    });
  });
});
