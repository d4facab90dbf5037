import Client from 'fhir-kit-client';
import ICAL from 'ical.js';
import { DEMO_USER_IDS } from '@libs/contracts';
import { startSystem, type RunningSystem } from '@libs/testing';
import { fhirProblems } from '../fhir';
import { api } from '../http';
import { anotherStudent, APPOINTMENTS, freeSlots, openClinic, SchedulingCaller, type Clinic } from './appointment-helpers';

interface Bundle {
  resourceType: string;
  type: string;
  link: { relation: string; url: string }[];
  entry?: { resource: { resourceType: string; id: string; status: string } }[];
}

/** The same appointment as JSON, as iCalendar through its changes, and as FHIR R4 Appointment. */
describe('an appointment’s renderings: iCalendar and FHIR', () => {
  let system: RunningSystem;
  let caller: SchedulingCaller;
  let clinic: Clinic;

  beforeAll(async () => {
    system = await startSystem();
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
    // No cut-offs: the student reschedules and cancels a slot that starts within the hour.
    clinic = await openClinic(system, caller, { code: 'PRM-0036', policy: { cancelCutoffMinutes: 0, rescheduleCutoffMinutes: 0 } });
  }, 120_000);

  afterAll(async () => {
    caller?.close();
    await system?.shutdown();
  });

  const student = (path: string, options: Parameters<typeof api>[2] = {}) => api(system.gatewayUrl, path, { key: system.keys.student, ...options });
  const event = async (id: string) => {
    const answer = await student(`${APPOINTMENTS}/${id}/ics`);
    expect(answer.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const [vevent] = new ICAL.Component(ICAL.parse(answer.body as string)).getAllSubcomponents('vevent');
    const instant = (name: string) => (vevent.getFirstPropertyValue(name) as ICAL.Time).toJSDate().getTime();
    return {
      uid: String(vevent.getFirstPropertyValue('uid')),
      sequence: Number(vevent.getFirstPropertyValue('sequence')),
      status: String(vevent.getFirstPropertyValue('status')),
      start: instant('dtstart'),
      end: instant('dtend'),
      location: String(vevent.getFirstPropertyValue('location')),
    };
  };
  const fhir = (path: string) => student(`${path}${path.includes('?') ? '&' : '?'}_format=fhir`);

  it('the calendar event keeps its UID while SEQUENCE grows with the confirmation, the reschedule and the cancellation', async () => {
    const [first, second] = await freeSlots(system, clinic);
    const hold = await student(`${APPOINTMENTS}/holds`, { method: 'POST', body: { slotToken: first.slotToken } });
    const id: string = hold.body.id;
    const held = await event(id);
    expect(held).toMatchObject({ uid: `${id}@appointments.clinical-reference`, status: 'TENTATIVE', start: Date.parse(first.start), end: Date.parse(first.end) });
    // LOCATION is the location's name, as the reference service knows the premise; never its id.
    expect(held.location).toMatch(/[A-Za-z]{3}/);
    expect(held.location).not.toBe(clinic.locationId);
    // TENTATIVE → CONFIRMED: a change of STATUS, so SEQUENCE grows (RFC 5545 §3.8.7.4).
    const confirmed = await student(`${APPOINTMENTS}/${id}/confirm`, { method: 'POST' });
    expect(confirmed.body).toMatchObject({ status: 'booked', sequence: held.sequence + 1 });
    expect(await event(id)).toEqual({ ...held, status: 'CONFIRMED', sequence: held.sequence + 1 });

    const moved = await student(`${APPOINTMENTS}/${id}/reschedule`, { method: 'POST', body: { slotToken: second.slotToken }, headers: { 'If-Match': '"2"' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id, status: 'booked', start: second.start, version: 3, sequence: held.sequence + 2 });
    expect(await event(id)).toEqual({ ...held, status: 'CONFIRMED', sequence: held.sequence + 2, start: Date.parse(second.start), end: Date.parse(second.end) });

    const cancelled = await student(`${APPOINTMENTS}/${id}/cancel`, { method: 'POST', body: { reasonCode: 'pat-crs', reasonText: 'feeling better, thanks' } });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', sequence: held.sequence + 3, cancellation: { reasonCode: 'pat-crs', late: false } });
    expect(await event(id)).toMatchObject({ uid: held.uid, status: 'CANCELLED', sequence: held.sequence + 3 });

    const history = await student(`${APPOINTMENTS}/${id}/history`);
    expect(history.body.entries.map((e: { action: string; sequence: number }) => [e.action, e.sequence - held.sequence])).toEqual([
      ['held', 0],
      ['confirmed', 1],
      ['rescheduled', 2],
      ['cancelled', 3],
    ]);
  });

  it('a released hold is CANCELLED in the calendar with SEQUENCE + 1; a student naming their own id in upper case may hold', async () => {
    const [slot] = await freeSlots(system, clinic);
    const hold = await student(`${APPOINTMENTS}/holds`, { method: 'POST', body: { slotToken: slot.slotToken, studentId: DEMO_USER_IDS.student.toUpperCase() } });
    expect(hold.status).toBe(201);
    const held = await event(hold.body.id);
    const released = await student(`${APPOINTMENTS}/${hold.body.id}/release`, { method: 'POST' });
    expect(released.body).toMatchObject({ status: 'cancelled', sequence: held.sequence + 1, cancellation: { reasonCode: 'released' } });
    expect(await event(hold.body.id)).toEqual({ ...held, status: 'CANCELLED', sequence: held.sequence + 1 });
  });

  it('answers FHIR R4 Appointment on request: status, times, participants, service; valid against the FHIR schema', async () => {
    const [slot] = await freeSlots(system, clinic);
    const booked = await student(APPOINTMENTS, { method: 'POST', body: { slotToken: slot.slotToken } });
    const path = `${APPOINTMENTS}/${booked.body.id}`;
    const answer = await fhir(path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    // The version is the JSON's ETag (If-Match names it); FHIR and ICS also carry names that change without the
    // appointment changing, so they get a tag of their own bytes, never the version.
    expect((await student(path)).headers.get('etag')).toBe('"1"');
    expect(answer.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/);
    expect(answer.headers.get('etag')).not.toBe('"1"');
    const ics = (await student(`${path}/ics`)).headers.get('etag');
    expect(ics).toMatch(/^(W\/)?"[^"]+"$/);
    expect(ics).not.toBe('"1"');
    expect(ics).not.toBe(answer.headers.get('etag'));
    const resource = answer.body;
    expect(fhirProblems(resource)).toEqual([]);
    expect(resource).toMatchObject({
      resourceType: 'Appointment',
      id: booked.body.id,
      status: 'booked',
      serviceType: [{ text: 'Service at PRM-0036' }],
      start: slot.start,
      end: slot.end,
      minutesDuration: 30,
    });
    // The resource has no FHIR resource of its own to point at: it is named by its Schedule's identifier.
    expect(resource.participant.map((p: { actor: object }) => p.actor)).toEqual([
      { reference: `Patient/${DEMO_USER_IDS.student}` },
      { identifier: { system: 'urn:clinical-reference:scheduling-resource', value: clinic.resourceIds[0] }, display: expect.any(String) },
      { reference: `Location/${clinic.locationId}`, display: expect.any(String) },
    ]);
    // The same through Accept, as FHIR clients ask.
    const accepted = await student(path, { headers: { accept: 'application/fhir+json' } });
    expect(accepted.body).toEqual(resource);

    await student(`${path}/cancel`, { method: 'POST', body: { reasonCode: 'oth-err', reasonText: 'booked the wrong service' } });
    const cancelled = (await fhir(path)).body;
    expect(fhirProblems(cancelled)).toEqual([]);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancelationReason: {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason', code: 'oth-err' }],
        text: 'booked the wrong service',
      },
    });
  });

  it('maps every status the student can reach (held → pending) and lists them as a searchset Bundle, paged', async () => {
    const [slot] = await freeSlots(system, clinic);
    const hold = await student(`${APPOINTMENTS}/holds`, { method: 'POST', body: { slotToken: slot.slotToken } });
    expect((await fhir(`${APPOINTMENTS}/${hold.body.id}`)).body.status).toBe('pending');
    const all = await student(`${APPOINTMENTS}?limit=500`);
    const bundles: Bundle[] = [];
    let next: string | undefined = `${system.gatewayUrl}${APPOINTMENTS}?limit=2&_format=fhir`;
    const client = new Client({ baseUrl: `${system.gatewayUrl}/api/v1`, customHeaders: { Authorization: `Bearer ${system.keys.student}` } });
    while (next) {
      const bundle = (await client.request(next)) as unknown as Bundle;
      expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
      expect(fhirProblems(bundle as never)).toEqual([]);
      bundles.push(bundle);
      next = bundle.link.find((link) => link.relation === 'next')?.url;
    }
    const listed = bundles.flatMap((bundle) => bundle.entry ?? []).map((entry) => [entry.resource.id, entry.resource.status]);
    expect(listed).toEqual(all.body.appointments.map((a: { id: string; fhirStatus: string }) => [a.id, a.fhirStatus]));
    expect(listed.length).toBeGreaterThan(2);
    expect(new Set(listed.map(([, status]) => status))).toEqual(new Set(['pending', 'cancelled']));
  });

  it('renders a page naming several services, resources and locations within a student key’s own limits', async () => {
    // A new student's key has its role's default limits (4 calls at once), not the test keys' generous ones.
    const newcomer = await anotherStudent(system);
    const elsewhere = await openClinic(system, caller, { code: 'PRM-0037', resources: 2 });
    const [here] = await freeSlots(system, clinic);
    // Another resource at another location, at a time that does not overlap (a student is in one place at a time).
    const there = (await freeSlots(system, elsewhere)).find(
      (s) => s.resourceId === elsewhere.resourceIds[1] && (Date.parse(s.start) >= Date.parse(here.end) || Date.parse(s.end) <= Date.parse(here.start)),
    );
    if (!there) throw new Error('no free slot at the other clinic clear of the first');
    const slots = [here, there];
    for (const slot of slots) {
      const booked = await api(system.gatewayUrl, APPOINTMENTS, { key: newcomer.key, method: 'POST', body: { slotToken: slot.slotToken } });
      expect(booked.status).toBe(201);
    }
    const bundle = await api(system.gatewayUrl, `${APPOINTMENTS}?_format=fhir`, { key: newcomer.key });
    expect(bundle.status).toBe(200);
    expect(fhirProblems(bundle.body)).toEqual([]);
    const names = bundle.body.entry.map((e: { resource: { serviceType: { text: string }[] } }) => e.resource.serviceType[0].text);
    expect(names.sort()).toEqual(['Service at PRM-0036', 'Service at PRM-0037']);
  });

  it('answers a FHIR client’s errors as OperationOutcome', async () => {
    const missing = await fhir(`${APPOINTMENTS}/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] });
    expect(fhirProblems(missing.body)).toEqual([]);
  });
});
