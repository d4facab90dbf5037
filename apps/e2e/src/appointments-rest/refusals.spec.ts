import { randomUUID } from 'node:crypto';
import { DEMO_USER_IDS } from '@libs/contracts';
import { raiseKeyLimits, startSystem, type RunningSystem } from '@libs/testing';
import { api } from '../http';
import { anotherStudent, APPOINTMENTS, freeSlots, openClinic, SchedulingCaller, type Clinic } from './appointment-helpers';

const problem = (type: string) => `urn:clinical-reference:problem:${type}`;

/** What the appointment REST API refuses, and how: each answer as /openapi.json documents it (api() checks). */
describe('appointment refusals through the gateway', () => {
  let system: RunningSystem;
  let caller: SchedulingCaller;
  let clinic: Clinic;
  let other: { key: string; userId: string };

  beforeAll(async () => {
    system = await startSystem();
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
    clinic = await openClinic(system, caller, { code: 'PRM-0036' });
    other = await anotherStudent(system);
  }, 120_000);

  afterAll(async () => {
    caller?.close();
    await system?.shutdown();
  });

  const as = (key: string, path: string, options: Parameters<typeof api>[2] = {}) => api(system.gatewayUrl, path, { key, ...options });
  const post = (key: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    as(key, path, { method: 'POST', body, headers });
  /** The clinic's first free slot (taken ones drop out of the search). */
  const slot = async () => (await freeSlots(system, clinic))[0];
  const book = async (key = system.keys.student) => {
    const booked = await post(key, APPOINTMENTS, { slotToken: (await slot()).slotToken });
    expect(booked.status).toBe(201);
    return booked.body as { id: string; version: number };
  };

  it('a taken slot is a 409 slot_taken with alternatives that never name the holder', async () => {
    const wanted = await slot();
    const hold = await post(system.keys.student, `${APPOINTMENTS}/holds`, { slotToken: wanted.slotToken });
    expect(hold.status).toBe(201);
    const refused = await post(other.key, `${APPOINTMENTS}/holds`, { slotToken: wanted.slotToken });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body.type).toBe(problem('slot_taken'));
    expect(refused.body.alternatives.length).toBeGreaterThan(0);
    expect(refused.body.alternatives.length).toBeLessThanOrEqual(3);
    for (const alternative of refused.body.alternatives) expect(alternative.start).not.toBe(wanted.start);
    const text = JSON.stringify(refused.body);
    expect(text).not.toContain(DEMO_USER_IDS.student);
    expect(text).not.toContain(hold.body.id);
    // An alternative is a slot like any other: the other student takes it.
    const taken = await post(other.key, APPOINTMENTS, { slotToken: refused.body.alternatives[0].slotToken });
    expect(taken).toMatchObject({ status: 201, body: { studentId: other.userId, status: 'booked' } });
  });

  it('a stale If-Match is a 412, and nothing changes', async () => {
    const hold = await post(system.keys.student, `${APPOINTMENTS}/holds`, { slotToken: (await slot()).slotToken });
    const confirmed = await post(system.keys.student, `${APPOINTMENTS}/${hold.body.id}/confirm`, undefined, { 'If-Match': '"1"' });
    expect(confirmed.headers.get('etag')).toBe('"2"');
    const stale = await post(system.keys.clinician, `${APPOINTMENTS}/${hold.body.id}/cancel`, { reasonCode: 'prov' }, { 'If-Match': '"1"' });
    expect(stale.status).toBe(412);
    const read = await as(system.keys.student, `${APPOINTMENTS}/${hold.body.id}`);
    expect(read.body).toMatchObject({ status: 'booked', version: 2 });
  });

  it('an illegal move is a 409 naming the current status and where the move is allowed from', async () => {
    const booked = await book();
    const refused = await post(system.keys.student, `${APPOINTMENTS}/${booked.id}/confirm`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: problem('illegal_transition'), currentStatus: 'booked', allowedFrom: ['held'] });
  });

  it('a policy refusal is a 422 naming the rule: a student cancels after the cut-off', async () => {
    const strict = await openClinic(system, caller, { code: 'PRM-0038', policy: { cancelCutoffMinutes: 2_880 } });
    const [free] = await freeSlots(system, strict);
    const newcomer = await anotherStudent(system);
    const booked = (await post(newcomer.key, APPOINTMENTS, { slotToken: free.slotToken })).body;
    const refused = await post(newcomer.key, `${APPOINTMENTS}/${booked.id}/cancel`, { reasonCode: 'pat' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ type: problem('policy'), rule: 'cancel_cutoff', limit: expect.any(String) });
    // Staff may still, flagged late.
    const cancelled = await post(system.keys.clinician, `${APPOINTMENTS}/${booked.id}/cancel`, { reasonCode: 'prov', reasonText: 'pharmacist ill' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancellation: { reasonCode: 'prov', reasonText: 'pharmacist ill', late: true, cancelledByRole: 'clinician' } });
  });

  it("a student holds and books a service only up to its caps (422 naming the rule), even all at once; staff book past them", async () => {
    const capped = await openClinic(system, caller, { code: 'PRM-0040', policy: { maxActivePerStudent: 3, maxHoldsPerStudent: 2 } });
    const slots = await freeSlots(system, capped);
    const greedy = await anotherStudent(system);
    const take = (path: string, slot: { slotToken: string }, key = greedy.key) => post(key, path, { slotToken: slot.slotToken });

    const firstHold = await take(`${APPOINTMENTS}/holds`, slots[0]);
    expect(firstHold.status).toBe(201);
    expect((await take(`${APPOINTMENTS}/holds`, slots[1])).status).toBe(201);
    const thirdHold = await take(`${APPOINTMENTS}/holds`, slots[2]);
    expect(thirdHold).toMatchObject({ status: 422, body: { type: problem('policy'), rule: 'max_holds_per_student', cap: 2 } });
    expect((await take(APPOINTMENTS, slots[2])).status).toBe(201);
    const fourth = await take(APPOINTMENTS, slots[3]);
    expect(fourth).toMatchObject({ status: 422, body: { type: problem('policy'), rule: 'max_active_per_student', cap: 3 } });
    // A refusal takes nothing: the slot is still offered.
    expect((await freeSlots(system, capped)).map((slot) => slot.start)).toContain(slots[3].start);

    // Staff may book past the caps for the student; once both that and a hold are gone, the student has room again.
    const byStaff = await post(system.keys.clinician, APPOINTMENTS, { slotToken: slots[3].slotToken, studentId: greedy.userId });
    expect(byStaff.status).toBe(201);
    expect((await post(system.keys.clinician, `${APPOINTMENTS}/${byStaff.body.id}/cancel`, { reasonCode: 'prov' })).status).toBe(200);
    expect((await post(greedy.key, `${APPOINTMENTS}/${firstHold.body.id}/release`)).status).toBe(200);
    expect((await take(APPOINTMENTS, slots[4])).status).toBe(201);

    // Eight bookings at once by a new student (whose key may have that many in flight): the caps hold under concurrency.
    const racer = await anotherStudent(system);
    await raiseKeyLimits(system.gatewayUrl, system.keys.admin, [racer.key]);
    const answers = await Promise.all(slots.slice(5, 13).map((slot) => take(APPOINTMENTS, slot, racer.key)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status !== 201).map((answer) => [answer.status, answer.body.rule])).toEqual(Array(5).fill([422, 'max_active_per_student']));
  });

  it('confirming an expired hold is a 410 with when it expired', async () => {
    const quick = await openClinic(system, caller, { code: 'PRM-0037', policy: { holdTtlSeconds: 1 } });
    const [free] = await freeSlots(system, quick);
    // A student with no other appointment (the demo student's are at the same times in the other clinic).
    const newcomer = await anotherStudent(system);
    const hold = await post(newcomer.key, `${APPOINTMENTS}/holds`, { slotToken: free.slotToken });
    expect(hold.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const refused = await post(newcomer.key, `${APPOINTMENTS}/${hold.body.id}/confirm`);
    expect(refused.status).toBe(410);
    expect(refused.body).toMatchObject({ type: problem('hold_expired'), expiredAt: expect.any(String) });
  });

  it('another student’s appointment is a 404 to every operation, never a 403', async () => {
    const booked = await book();
    for (const [method, path] of [
      ['GET', `${APPOINTMENTS}/${booked.id}`],
      ['GET', `${APPOINTMENTS}/${booked.id}/history`],
      ['GET', `${APPOINTMENTS}/${booked.id}/ics`],
      ['POST', `${APPOINTMENTS}/${booked.id}/cancel`],
    ]) {
      const answer = await as(other.key, path, { method, ...(method === 'POST' ? { body: { reasonCode: 'pat' } } : {}) });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
    const theirs = await as(other.key, APPOINTMENTS);
    expect(theirs.body.appointments.map((a: { studentId: string }) => a.studentId)).toEqual(theirs.body.appointments.map(() => other.userId));
  });

  it('a repeated Idempotency-Key is answered with the first response, marked replayed; with another body it is a 409', async () => {
    const key = randomUUID();
    const body = { slotToken: (await slot()).slotToken };
    const first = await post(system.keys.student, APPOINTMENTS, body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post(system.keys.student, APPOINTMENTS, body, { 'Idempotency-Key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    const list = await as(system.keys.student, `${APPOINTMENTS}?status=booked&limit=500`);
    expect(list.body.appointments.filter((a: { start: string }) => a.start === first.body.start)).toHaveLength(1);
    const misuse = await post(system.keys.student, APPOINTMENTS, { slotToken: (await slot()).slotToken }, { 'Idempotency-Key': key });
    expect(misuse.status).toBe(409);
  });

  it('bad input is a 400 naming each field, and writes nothing', async () => {
    const token = (await slot()).slotToken;
    const tampered = `${token.slice(0, -3)}${token.slice(-3) === 'AAA' ? 'BBB' : 'AAA'}`;
    const cases: [string, string, unknown, string[]][] = [
      ['POST', `${APPOINTMENTS}/holds`, { slotToken: tampered }, ['slotToken']],
      ['POST', APPOINTMENTS, { slotToken: '', studentId: 'me', extra: 1 }, ['slotToken', 'studentId', 'extra']],
      ['POST', `${APPOINTMENTS}/${randomUUID()}/cancel`, { reasonCode: 'bored', reasonText: 'x'.repeat(501) }, ['reasonCode', 'reasonText']],
      ['POST', `${APPOINTMENTS}/${randomUUID()}/entered-in-error`, { reason: 'a\u0000b' }, ['reason']],
      ['POST', `${APPOINTMENTS}/not-an-id/confirm`, undefined, ['id']],
      ['GET', `${APPOINTMENTS}?from=2026-03-08T09:00&to=2026-03-08&status=done`, undefined, ['from', 'to', 'status']],
    ];
    for (const [method, path, body, fields] of cases) {
      const key = path.endsWith('entered-in-error') ? system.keys.admin : system.keys.student;
      const answer = await as(key, path, { method, body });
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      expect({ path, fields: answer.body.errors.map((e: { field: string }) => e.field).sort() }).toEqual({ path, fields: [...fields].sort() });
    }
    // The untampered token is still free: nothing was held.
    const held = await post(system.keys.student, `${APPOINTMENTS}/holds`, { slotToken: token });
    expect(held.status).toBe(201);
  });

  it('staff book for a named student; a student only for themselves', async () => {
    const token = (await slot()).slotToken;
    const unnamed = await post(system.keys.clinician, APPOINTMENTS, { slotToken: token });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors).toEqual([{ field: 'studentId', message: expect.any(String) }]);
    expect((await post(system.keys.student, APPOINTMENTS, { slotToken: token, studentId: other.userId })).status).toBe(403);
    const booked = await post(system.keys.clinician, APPOINTMENTS, { slotToken: token, studentId: other.userId });
    expect(booked.body).toMatchObject({ status: 'booked', studentId: other.userId, bookedBy: DEMO_USER_IDS.clinician });
    // The student sees it as their own, without the staff account's id (the role stays).
    const path = `${APPOINTMENTS}/${booked.body.id}`;
    expect((await as(other.key, path)).body).toMatchObject({ id: booked.body.id, studentId: other.userId, bookedBy: null });
    expect((await post(system.keys.clinician, `${path}/cancel`, { reasonCode: 'prov' })).status).toBe(200);
    expect((await as(other.key, path)).body.cancellation).toMatchObject({ cancelledBy: null, cancelledByRole: 'clinician' });
    const history = (await as(other.key, `${path}/history`)).body.entries;
    expect(history.map((entry: { actorId: string | null; actorRole: string }) => [entry.actorId, entry.actorRole])).toEqual([
      [null, 'clinician'],
      [null, 'clinician'],
    ]);
    const listed = (await as(other.key, `${APPOINTMENTS}?limit=500`)).body.appointments;
    expect(listed.find((a: { id: string }) => a.id === booked.body.id)).toMatchObject({ bookedBy: null });
    expect(JSON.stringify([await as(other.key, path), history, listed])).not.toContain(DEMO_USER_IDS.clinician);
    // Staff still see who acted; a student's own booking names them.
    expect((await as(system.keys.clinician, path)).body).toMatchObject({ bookedBy: DEMO_USER_IDS.clinician, cancellation: { cancelledBy: DEMO_USER_IDS.clinician } });
    const own = await post(other.key, APPOINTMENTS, { slotToken: (await slot()).slotToken });
    expect(own.body).toMatchObject({ bookedBy: other.userId });
  });

  it('a clinician booking a student who is busy then learns only that: student_busy names no time, place or appointment', async () => {
    const busyStudent = await anotherStudent(system);
    const wanted = await slot();
    expect((await post(busyStudent.key, APPOINTMENTS, { slotToken: wanted.slotToken })).status).toBe(201);
    const elsewhere = await openClinic(system, caller, { code: 'PRM-0030' });
    const [sameTime] = (await freeSlots(system, elsewhere, new Date(wanted.start), 1)).filter((free) => free.start === wanted.start);
    const refused = await post(system.keys.clinician, APPOINTMENTS, { slotToken: sameTime.slotToken, studentId: busyStudent.userId });
    expect(refused.status).toBe(409);
    expect(Object.keys(refused.body).sort()).toEqual(['detail', 'requestId', 'status', 'title', 'type']);
    expect(refused.body.type).toBe(problem('student_busy'));
  });

  it('a reader may not book or read appointments (403); a student may not check in (403)', async () => {
    const token = (await slot()).slotToken;
    expect((await post(system.keys.reader, `${APPOINTMENTS}/holds`, { slotToken: token })).status).toBe(403);
    expect((await as(system.keys.reader, APPOINTMENTS)).status).toBe(403);
    const booked = await book();
    expect((await post(system.keys.student, `${APPOINTMENTS}/${booked.id}/check-in`)).status).toBe(403);
    expect((await post(system.keys.clinician, `${APPOINTMENTS}/${booked.id}/entered-in-error`, { reason: 'duplicate' })).status).toBe(403);
    const voided = await post(system.keys.admin, `${APPOINTMENTS}/${booked.id}/entered-in-error`, { reason: 'duplicate' });
    expect(voided.body).toMatchObject({ status: 'entered_in_error', fhirStatus: 'entered-in-error', errorReason: 'duplicate', sequence: 1 }); // CONFIRMED → CANCELLED: SEQUENCE 0 → 1
  });
});
