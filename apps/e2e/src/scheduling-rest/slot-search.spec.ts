import { DEMO_USER_IDS, ROLES, SCHEDULING_LIMITS, type Role } from '@libs/contracts';
import { startSystem, type RunningSystem } from '@libs/testing';
import { fhirProblems } from '../fhir';
import { scrape, total } from '../metrics';
import { SchedulingCaller, setUpClinic, student } from '../scheduling/scheduling-client';
import { as, dateFromToday, DEMO, demoLocations, everyPage, fieldsOf, tampered, type Caller } from './rest-client';

jest.setTimeout(60_000);

type Slot = { slotToken: string; start: string; end: string; timeZone: string; resourceId: string; serviceId: string; viewerStart?: string };

/** Free slots through the gateway: the demo duty nurse offers walk-ins every 30 minutes, 08:00–20:00 in London. */
describe('slot search (/api/v1/scheduling/slots)', () => {
  let system: RunningSystem;
  let call: Record<Role, Caller>;
  let nurseLocation: string;
  // A day a week ahead: inside the demo policy's horizon, and past its notice.
  const day = dateFromToday(7);
  const search = (query: string) => `/api/v1/scheduling/slots?service=${DEMO.walkIn}&${query}`;

  beforeAll(async () => {
    system = await startSystem();
    call = Object.fromEntries(ROLES.map((role) => [role, as(system, role)])) as Record<Role, Caller>;
    await demoLocations(system);
    nurseLocation = (await call.reader(`/api/v1/scheduling/resources/${DEMO.nurse}`)).body.locationId;
  }, 120_000);
  afterAll(() => system?.shutdown());

  it('every role finds the free slots of a day, page by page to the end; a tampered cursor is a 400', async () => {
    const path = search(`location=${nurseLocation}&from=${day}&to=${day}`);
    for (const role of ROLES) expect((await call[role](path)).status).toBe(200);
    const { body } = await call.student(path);
    expect(body.slots).toHaveLength(24);
    expect(body).not.toHaveProperty('nextCursor');
    for (const slot of body.slots as Slot[]) {
      expect(slot).toMatchObject({ timeZone: 'Europe/London', resourceId: DEMO.nurse, serviceId: DEMO.walkIn, locationId: nurseLocation });
      expect(slot.start.slice(0, 10)).toBe(day);
      expect(slot).not.toHaveProperty('viewerStart');
    }
    expect(await everyPage(call.student, `${path}&limit=5`, 'slots')).toEqual(body.slots);
    const first = await call.student(`${path}&limit=5`);
    const bad = await call.student(`${path}&limit=5&cursor=${encodeURIComponent(tampered(first.body.nextCursor))}`);
    expect([bad.status, fieldsOf(bad)]).toEqual([400, ['cursor']]);
  });

  it("takes a range of instants, and shows slots on the viewer's clock when timeZone is given", async () => {
    const { body } = await call.reader(search(`resource=${DEMO.nurse}&from=${day}T00:00:00Z&to=${day}T12:00:00%2B01:00`));
    expect(body.slots.length).toBeGreaterThan(0);
    for (const slot of body.slots as Slot[]) expect(Date.parse(slot.start)).toBeLessThan(Date.parse(`${day}T11:00:00Z`));
    const tokyo = await call.reader(search(`resource=${DEMO.nurse}&from=${day}&to=${day}&timeZone=Asia/Tokyo`));
    expect(tokyo.status).toBe(200);
    for (const slot of tokyo.body.slots as Slot[]) expect(slot.viewerStart).toMatch(/\+09:00$/);
  });

  it('names the field of a bad search: over 31 days, no offset, an unknown zone, nothing to search at', async () => {
    const cases: [string, string[]][] = [
      [search(`location=${nurseLocation}&from=${day}&to=${dateFromToday(7 + 31)}`), ['to']],
      [search(`location=${nurseLocation}&from=${day}T00:00:00Z&to=${dateFromToday(40)}T00:00:01Z`), ['to']],
      [search(`location=${nurseLocation}&from=${day}T09:00&to=${day}T10:00:00Z`), ['from']],
      [search(`location=${nurseLocation}&from=${day}&to=${day}&timeZone=Mars/Olympus_Mons`), ['timeZone']],
      [search(`location=${nurseLocation}&from=${day}&to=${day}&timeZone=%2B05:00`), ['timeZone']],
      [search(`location=${nurseLocation}&from=${day}&to=${day}T10:00:00Z`), ['to']],
      [`/api/v1/scheduling/slots?from=${day}&to=${day}`, ['location', 'service']],
    ];
    for (const [path, fields] of cases) {
      const response = await call.student(path);
      expect([path, response.status, fieldsOf(response).sort()]).toEqual([path, 400, fields]);
    }
    // A 31-day range is fine, in local dates even across a daylight-saving change (London, 2027-10-31).
    expect((await call.student(search(`resource=${DEMO.nurse}&from=${day}&to=${dateFromToday(7 + 30)}&limit=1`))).status).toBe(200);
    expect((await call.student(search(`resource=${DEMO.nurse}&from=2027-10-01&to=2027-10-31&limit=1`))).status).toBe(200);
    expect((await call.student(`/api/v1/scheduling/slots?service=00000000-0000-4000-8000-000000000000&location=${nurseLocation}&from=${day}&to=${day}`)).status).toBe(404);
  });

  it('explains the rest to staff only, and never says who holds a slot', async () => {
    const path = search(`resource=${DEMO.nurse}&from=${day}&to=${day}&explain=true`);
    for (const role of ['reader', 'student', 'bursar'] as const) expect((await call[role](path)).status).toBe(403);
    const [slot] = (await call.student(search(`resource=${DEMO.nurse}&from=${day}&to=${day}`))).body.slots as Slot[];
    const grpc = new SchedulingCaller(system.grpcAddress('scheduling'));
    try {
      await grpc.call(student(DEMO_USER_IDS.student), 'holdSlot', { slotToken: slot.slotToken });
    } finally {
      grpc.close();
    }
    const free = (await call.student(search(`resource=${DEMO.nurse}&from=${day}&to=${day}`))).body.slots as Slot[];
    expect(free.map((s) => s.start)).not.toContain(slot.start);
    for (const role of ['clinician', 'admin'] as const) {
      const explained = await call[role](path);
      expect(explained.status).toBe(200);
      expect(explained.body.unavailable).toContainEqual({ resourceId: DEMO.nurse, start: slot.start, end: slot.end, reasons: ['held'] });
      expect(explained.body.unavailable).toContainEqual(expect.objectContaining({ reasons: ['outside_hours'] }));
      expect(JSON.stringify(explained.body)).not.toContain(DEMO_USER_IDS.student);
    }
  });

  describe('FHIR R4 (_format=fhir)', () => {
    it('answers a slot search with a searchset Bundle of free Slots on their Schedule, paged by its next link', async () => {
      const { status, headers, body } = await call.reader(search(`resource=${DEMO.nurse}&from=${day}&to=${day}&limit=10&_format=fhir`));
      expect(status).toBe(200);
      expect(headers.get('content-type')).toMatch(/^application\/fhir\+json/);
      expect(headers.get('vary')).toMatch(/Accept/);
      expect(body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
      expect(body.entry).toHaveLength(10);
      for (const { resource } of body.entry) {
        expect(resource).toMatchObject({ resourceType: 'Slot', status: 'free', schedule: { reference: `Schedule/${DEMO.nurse}` } });
      }
      expect(fhirProblems(body)).toEqual([]);
      const next = body.link.find((link: { relation: string }) => link.relation === 'next');
      const url = new URL(next.url);
      const second = await call.reader(`${url.pathname}${url.search}`);
      expect(second.body.entry[0].resource.start).not.toBe(body.entry[0].resource.start);
    });

    it('shows a resource as its Schedule, and the resources as a Bundle of Schedules', async () => {
      const one = await call.reader(`/api/v1/scheduling/resources/${DEMO.pharmacist}?_format=fhir`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({
        resourceType: 'Schedule',
        id: DEMO.pharmacist,
        active: true,
        actor: expect.arrayContaining([{ display: 'Pharmacist on duty' }]),
      });
      expect(fhirProblems(one.body)).toEqual([]);
      const list = await call.reader('/api/v1/scheduling/resources', { headers: { accept: 'application/fhir+json' } });
      expect(list.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
      expect(list.body.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual(expect.arrayContaining([DEMO.pharmacist, DEMO.nurse]));
      expect(fhirProblems(list.body)).toEqual([]);
    });

    it('answers errors of a FHIR request as an OperationOutcome naming the parameter', async () => {
      const { status, body } = await call.reader(search(`resource=${DEMO.nurse}&from=${day}T09:00&to=${day}&_format=fhir`));
      expect(status).toBe(400);
      expect(body.resourceType).toBe('OperationOutcome');
      expect(JSON.stringify(body.issue)).toContain('from');
      expect(fhirProblems(body)).toEqual([]);
      // Another method on a path whose GET serves FHIR answers problem+json, as documented.
      const patch = await call.clinician(`/api/v1/scheduling/resources/${DEMO.nurse}?_format=fhir`, { method: 'PATCH', body: { name: 'x' } });
      expect([patch.status, patch.headers.get('content-type')]).toEqual([403, expect.stringMatching(/^application\/problem\+json/)]);
    });
  });
  it('looks ahead for nextAvailable within a bounded number of resource-days, however closed the location is', async () => {
    // Ten resources with no hours and a two-year horizon: unbounded, one search would read 10 × 731 resource-days.
    const caller = new SchedulingCaller(system.grpcAddress('scheduling'));
    try {
      const closed = await setUpClinic(system, caller, { code: 'PRM-0030', timeZone: 'Europe/London', hours: [], resources: 10, policy: { horizonDays: 730 } });
      const read = async () => {
        const metrics = await scrape(system.metricsUrl('scheduling'));
        return { sum: total(metrics, 'scheduling_look_ahead_resource_days_sum'), count: total(metrics, 'scheduling_look_ahead_resource_days_count') };
      };
      const before = await read();
      const found = await call.reader(`/api/v1/scheduling/slots?service=${closed.serviceId}&location=${closed.locationId}&from=${day}&to=${day}`);
      expect(found.status).toBe(200);
      expect(found.body.slots).toEqual([]);
      expect(found.body).not.toHaveProperty('nextAvailable');
      const after = await read();
      expect(after.count - before.count).toBe(1);
      expect(after.sum - before.sum).toBeGreaterThan(0);
      expect(after.sum - before.sum).toBeLessThanOrEqual(SCHEDULING_LIMITS.lookAheadResourceDays);
    } finally {
      caller.close();
    }
  });
});
