import ICAL from 'ical.js';
import { DEMO_USER_IDS } from '@libs/contracts';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { api } from '../http';
import { APPOINTMENTS, freeSlots, openClinic, SchedulingCaller, type Clinic } from './appointment-helpers';

/** The appointment REST API's "done when": a student books, downloads the event, is seen; the audit log has every step. */
describe('booking an appointment through the gateway', () => {
  let system: RunningSystem;
  let caller: SchedulingCaller;
  let clinic: Clinic;

  beforeAll(async () => {
    system = await startSystem();
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
    clinic = await openClinic(system, caller, { code: 'PRM-0036' });
  }, 120_000);

  afterAll(async () => {
    caller?.close();
    await system?.shutdown();
  });

  const as = (key: string, path: string, options: Parameters<typeof api>[2] = {}) => api(system.gatewayUrl, path, { key, ...options });

  it('a student holds a free slot, confirms it and downloads it; the clinician checks it in and completes it; the audit log has every step', async () => {
    const [slot] = await freeSlots(system, clinic);
    const held = await as(system.keys.student, `${APPOINTMENTS}/holds`, { method: 'POST', body: { slotToken: slot.slotToken } });
    expect(held.status).toBe(201);
    expect(held.body).toMatchObject({ status: 'held', fhirStatus: 'pending', studentId: DEMO_USER_IDS.student, start: slot.start, end: slot.end, version: 1 });
    expect(Date.parse(held.body.holdExpiresAt)).toBeGreaterThan(Date.now());
    const path = `${APPOINTMENTS}/${held.body.id}`;
    expect(held.headers.get('location')).toBe(path);
    expect(held.headers.get('etag')).toBe('"1"');

    const confirmed = await as(system.keys.student, `${path}/confirm`, { method: 'POST', headers: { 'If-Match': '"1"' } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id: held.body.id, status: 'booked', holdExpiresAt: null, version: 2, sequence: held.body.sequence + 1 });
    expect(confirmed.headers.get('etag')).toBe('"2"');

    const read = await as(system.keys.student, path);
    expect(read.body).toEqual(confirmed.body);

    const ics = await fetch(`${system.gatewayUrl}${path}/ics`, { headers: { authorization: `Bearer ${system.keys.student}` } });
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const calendar = new ICAL.Component(ICAL.parse(await ics.text()));
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    const [event] = calendar.getAllSubcomponents('vevent');
    expect(event.getFirstPropertyValue('uid')).toBe(`${held.body.id}@appointments.clinical-reference`);
    expect(event.getFirstPropertyValue('sequence')).toBe(confirmed.body.sequence);
    expect(event.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(event.getFirstPropertyValue('summary')).toBe('Service at PRM-0036');
    expect((event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime()).toBe(Date.parse(slot.start));
    expect((event.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().getTime()).toBe(Date.parse(slot.end));

    const checkedIn = await as(system.keys.clinician, `${path}/check-in`, { method: 'POST' });
    expect(checkedIn.body).toMatchObject({ status: 'checked_in', fhirStatus: 'checked-in', checkedInAt: expect.any(String) });
    const completed = await as(system.keys.clinician, `${path}/complete`, { method: 'POST', headers: { 'If-Match': checkedIn.headers.get('etag') ?? '' } });
    expect(completed.body).toMatchObject({ status: 'fulfilled', fhirStatus: 'fulfilled', completedAt: expect.any(String), version: 4 });

    const history = await as(system.keys.student, `${path}/history`);
    expect(history.body.entries.map((e: { action: string; actorRole: string }) => [e.action, e.actorRole])).toEqual([
      ['held', 'student'],
      ['confirmed', 'student'],
      ['checked_in', 'clinician'],
      ['completed', 'clinician'],
    ]);

    const entries = await waitFor('four audit entries for the appointment', async () => {
      const { body } = await as(system.keys.admin, `/api/v1/audit?entityType=appointment&entityId=${held.body.id}`);
      return body.entries.length === 4 ? body.entries : undefined;
    });
    expect(entries.map((e: { action: string; actor: { role: string } }) => [e.action, e.actor.role]).sort()).toEqual([
      ['appointment.checked_in', 'clinician'],
      ['appointment.completed', 'clinician'],
      ['appointment.confirmed', 'student'],
      ['appointment.held', 'student'],
    ]);
    // The audit log's `after` is the API's own shape of the appointment.
    const last = entries.find((e: { action: string }) => e.action === 'appointment.completed');
    expect(last.after).toEqual(completed.body);
  });
});
