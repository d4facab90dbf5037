import { randomUUID } from 'node:crypto';
import { DEMO_USER_IDS, ROLES, type Role } from '@libs/contracts';
import { startSystem, type RunningSystem } from '@libs/testing';
import { premiseId } from '../scheduling/scheduling-client';
import { as, DEMO, demoLocations, everyPage, fieldsOf, tampered, type Caller } from './rest-client';

jest.setTimeout(60_000);

const POLICY = {
  minNoticeMinutes: 0,
  horizonDays: 90,
  holdTtlSeconds: 300,
  cancelCutoffMinutes: 60,
  rescheduleCutoffMinutes: 60,
  checkInWindowMinutes: 30,
  noShowGraceMinutes: 10,
};

/** Locations, resources, services, schedules and blocks through the gateway, with each role's real key. */
describe('scheduling setup routes (/api/v1/scheduling)', () => {
  let system: RunningSystem;
  let call: Record<Role, Caller>;
  let newPremise: string;

  beforeAll(async () => {
    system = await startSystem();
    call = Object.fromEntries(ROLES.map((role) => [role, as(system, role)])) as Record<Role, Caller>;
    await demoLocations(system);
    newPremise = await premiseId(system, 'PRM-0036');
  }, 120_000);
  afterAll(() => system?.shutdown());

  const others = (allowed: Role[]) => ROLES.filter((role) => !allowed.includes(role));

  describe('locations', () => {
    it('every role reads them; pages follow their cursor to the end; a tampered cursor is a 400', async () => {
      for (const role of ROLES) expect((await call[role]('/api/v1/scheduling/locations')).status).toBe(200);
      const all = (await call.reader('/api/v1/scheduling/locations')).body.locations;
      const paged = await everyPage(call.reader, '/api/v1/scheduling/locations?limit=1', 'locations');
      expect(paged).toEqual(all);
      const first = await call.reader('/api/v1/scheduling/locations?limit=1');
      const bad = await call.reader(`/api/v1/scheduling/locations?limit=1&cursor=${encodeURIComponent(tampered(first.body.nextCursor))}`);
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad)).toEqual(['cursor']);
    });

    it('one location has its version as ETag; a premise without booking is a 404', async () => {
      const [location] = (await call.reader('/api/v1/scheduling/locations')).body.locations;
      const one = await call.student(`/api/v1/scheduling/locations/${location.premiseId}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(location);
      expect(one.headers.get('etag')).toBe(`"${location.version}"`);
      expect((await call.reader(`/api/v1/scheduling/locations/${newPremise}`)).status).toBe(404);
      const bad = await call.reader('/api/v1/scheduling/locations/PRM-0002');
      expect([bad.status, fieldsOf(bad)]).toEqual([400, ['premiseId']]);
    });

    it('only an admin enables booking (201, then 200 when changed); a stale If-Match is a 412', async () => {
      const path = `/api/v1/scheduling/locations/${newPremise}`;
      for (const role of others(['admin'])) expect((await call[role](path, { method: 'PUT', body: { timeZone: 'Africa/Nairobi' } })).status).toBe(403);
      const enabled = await call.admin(path, { method: 'PUT', body: { timeZone: 'Africa/Nairobi' } });
      expect(enabled.status).toBe(201);
      expect(enabled.headers.get('location')).toBe(path);
      expect(enabled.body).toMatchObject({ premiseId: newPremise, timeZone: 'Africa/Nairobi', version: 1 });
      const changed = await call.admin(path, { method: 'PUT', body: { timeZone: 'Europe/London' }, headers: { 'if-match': '"1"' } });
      expect([changed.status, changed.body.version, changed.headers.get('etag')]).toEqual([200, 2, '"2"']);
      const stale = await call.admin(path, { method: 'PUT', body: { timeZone: 'Europe/Paris' }, headers: { 'if-match': '"1"' } });
      expect(stale.status).toBe(412);
      expect((await call.reader(path)).body.timeZone).toBe('Europe/London');
    });

    it('refuses a zone that is not an IANA name and a premise the reference service does not know', async () => {
      const bad = await call.admin(`/api/v1/scheduling/locations/${newPremise}`, { method: 'PUT', body: { timeZone: '+05:00', extra: 1 } });
      expect(bad.status).toBe(400);
      expect(fieldsOf(bad).sort()).toEqual(['extra', 'timeZone']);
      const unknown = await call.admin('/api/v1/scheduling/locations/999999999', { method: 'PUT', body: { timeZone: 'UTC' } });
      expect(unknown.status).toBe(404);
    });
  });

  describe('resources and services', () => {
    it('every role reads the demo resources; only staff see who staffs them', async () => {
      const [pharmacistForReader, pharmacistForClinician] = await Promise.all(
        [call.reader, call.clinician].map((c) => c(`/api/v1/scheduling/resources/${DEMO.pharmacist}`)),
      );
      expect(pharmacistForReader.status).toBe(200);
      expect(pharmacistForReader.body).not.toHaveProperty('staffUserIds');
      expect(pharmacistForClinician.body.staffUserIds).toEqual([DEMO_USER_IDS.clinician]);
      expect(pharmacistForReader.headers.get('etag')).toBe(`"${pharmacistForReader.body.version}"`);
      const all = await everyPage(call.student, '/api/v1/scheduling/resources?limit=2', 'resources');
      expect(all.map((r) => (r as { id: string }).id)).toEqual(expect.arrayContaining([DEMO.pharmacist, DEMO.nurse, DEMO.officer]));
      for (const resource of all) expect(resource).not.toHaveProperty('staffUserIds');
      expect((await call.reader(`/api/v1/scheduling/resources/${randomUUID()}`)).status).toBe(404);
      expect(fieldsOf(await call.reader('/api/v1/scheduling/resources/nope'))).toEqual(['id']);
    });

    it('filters resources by location', async () => {
      const { locationId } = (await call.reader(`/api/v1/scheduling/resources/${DEMO.nurse}`)).body;
      const { body } = await call.reader(`/api/v1/scheduling/resources?location=${locationId}`);
      expect(body.resources.map((r: { id: string }) => r.id)).toEqual([DEMO.nurse]);
      expect(fieldsOf(await call.reader('/api/v1/scheduling/resources?location=x'))).toEqual(['location']);
    });

    it('an admin creates a service and a resource (idempotently), and changes them under If-Match', async () => {
      const key = randomUUID();
      const body = { name: 'Travel clinic', durationMinutes: 30, slotStepMinutes: 30, policy: POLICY };
      for (const role of others(['admin'])) expect((await call[role]('/api/v1/scheduling/services', { method: 'POST', body })).status).toBe(403);
      const created = await call.admin('/api/v1/scheduling/services', { method: 'POST', body, headers: { 'idempotency-key': key } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ ...body, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, active: true, version: 1 });
      expect(created.headers.get('location')).toBe(`/api/v1/scheduling/services/${created.body.id}`);
      const replay = await call.admin('/api/v1/scheduling/services', { method: 'POST', body, headers: { 'idempotency-key': key } });
      expect([replay.status, replay.body.id, replay.headers.get('idempotent-replayed')]).toEqual([201, created.body.id, 'true']);
      const reused = await call.admin('/api/v1/scheduling/services', { method: 'POST', body: { ...body, name: 'Other' }, headers: { 'idempotency-key': key } });
      expect(reused.status).toBe(409);
      const service = created.body.id;
      expect((await call.reader(`/api/v1/scheduling/services/${service}`)).body).toEqual(created.body);
      expect(await everyPage(call.reader, '/api/v1/scheduling/services?limit=1', 'services')).toContainEqual(created.body);

      const { locationId } = (await call.reader(`/api/v1/scheduling/resources/${DEMO.officer}`)).body;
      const resource = await call.admin('/api/v1/scheduling/resources', {
        method: 'POST',
        body: { locationId, kind: 'room', name: 'Travel room', serviceIds: [service] },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(resource.status).toBe(201);
      expect(resource.body).toMatchObject({ locationId, kind: 'room', name: 'Travel room', serviceIds: [service], staffUserIds: [], version: 1 });

      const patchService = (changes: object, version: string) =>
        call.admin(`/api/v1/scheduling/services/${service}`, { method: 'PATCH', body: changes, headers: { 'if-match': version } });
      const renamed = await patchService({ name: 'Travel vaccinations', policy: { ...POLICY, horizonDays: 30 } }, '"1"');
      expect([renamed.status, renamed.body.version, renamed.body.policy.horizonDays, renamed.headers.get('etag')]).toEqual([200, 2, 30, '"2"']);
      expect((await patchService({ active: false }, '"1"')).status).toBe(412);
      const patchResource = (changes: object, version: string, who: Caller = call.admin) =>
        who(`/api/v1/scheduling/resources/${resource.body.id}`, { method: 'PATCH', body: changes, headers: { 'if-match': version } });
      expect((await patchResource({ name: 'x' }, '"1"', call.clinician)).status).toBe(403);
      const staffed = await patchResource({ staffUserIds: [DEMO_USER_IDS.clinician] }, '"1"');
      expect([staffed.status, staffed.body.staffUserIds, staffed.body.version]).toEqual([200, [DEMO_USER_IDS.clinician], 2]);
      expect((await patchResource({ active: false }, '"1"')).status).toBe(412);
      expect((await call.reader(`/api/v1/scheduling/resources/${resource.body.id}`)).body.serviceIds).toEqual([service]);
    });

    it('names every bad field of a body in one 400, and writes nothing', async () => {
      const before = await everyPage(call.admin, '/api/v1/scheduling/resources', 'resources');
      const resource = await call.admin('/api/v1/scheduling/resources', {
        method: 'POST',
        body: { locationId: 'PRM-1', kind: 'robot', name: ' ', serviceIds: ['nope', DEMO.walkIn, DEMO.walkIn], colour: 'red' },
      });
      expect(resource.status).toBe(400);
      expect(resource.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(fieldsOf(resource).sort()).toEqual(['colour', 'kind', 'locationId', 'name', 'serviceIds[0]', 'serviceIds[2]']);
      const unknownService = await call.admin('/api/v1/scheduling/resources', {
        method: 'POST',
        body: { locationId: (before[0] as { locationId: string }).locationId, kind: 'room', name: 'Ghost room', serviceIds: [randomUUID()] },
      });
      expect([unknownService.status, fieldsOf(unknownService)]).toEqual([400, ['serviceIds[0]']]);
      expect(await everyPage(call.admin, '/api/v1/scheduling/resources', 'resources')).toEqual(before);

      const service = await call.admin('/api/v1/scheduling/services', {
        method: 'POST',
        body: { name: 'x'.repeat(201), durationMinutes: 2, slotStepMinutes: 30.5, policy: { ...POLICY, horizonDays: 0, holdTtlSeconds: 3_601 } },
      });
      expect(fieldsOf(service).sort()).toEqual(['durationMinutes', 'name', 'policy.holdTtlSeconds', 'policy.horizonDays', 'slotStepMinutes']);
      const empty = await call.admin(`/api/v1/scheduling/services/${DEMO.walkIn}`, { method: 'PATCH', body: {} });
      expect(empty.status).toBe(400);
    });
  });

  describe('schedules', () => {
    it('reads weekly rules as everyone; an admin replaces them under If-Match; overlapping windows are a 400', async () => {
      const path = `/api/v1/scheduling/schedules/${DEMO.officer}/rules`;
      const rules = await call.student(path);
      expect(rules.status).toBe(200);
      expect(rules.body).toMatchObject({ scheduleId: DEMO.officer, timeZone: 'Africa/Nairobi', localDate: null, closed: null });
      expect(rules.body.windows).toContainEqual({ weekday: 1, start: '08:00', end: '17:00' });
      const version = rules.headers.get('etag') as string;
      const windows = [{ weekday: 1, start: '08:00', end: '12:00' }, { weekday: 1, start: '13:00', end: '24:00' }];
      expect((await call.clinician(path, { method: 'PUT', body: { windows } })).status).toBe(403);
      const overlapping = await call.admin(path, { method: 'PUT', body: { windows: [...windows, { weekday: 1, start: '11:00', end: '14:00' }] } });
      expect(overlapping.status).toBe(400);
      const badTimes = await call.admin(path, { method: 'PUT', body: { windows: [{ weekday: 8, start: '9:00', end: '24:01' }] } });
      expect(fieldsOf(badTimes).sort()).toEqual(['windows[0].end', 'windows[0].start', 'windows[0].weekday']);
      const replaced = await call.admin(path, { method: 'PUT', body: { windows }, headers: { 'if-match': version } });
      expect([replaced.status, replaced.body.windows]).toEqual([200, windows]);
      expect((await call.admin(path, { method: 'PUT', body: { windows }, headers: { 'if-match': version } })).status).toBe(412);
      expect((await call.reader(`/api/v1/scheduling/schedules/${randomUUID()}/rules`)).status).toBe(404);
    });

    it('sets, lists and deletes a date override (201, 200, 412, 404)', async () => {
      const base = `/api/v1/scheduling/schedules/${DEMO.nurse}/overrides`;
      const day = `${base}/2027-01-04`;
      expect((await call.student(day, { method: 'PUT', body: { closed: true } })).status).toBe(403);
      const closed = await call.admin(day, { method: 'PUT', body: { closed: true } });
      expect(closed.status).toBe(201);
      expect(closed.headers.get('location')).toBe(day);
      expect(closed.body).toEqual({ scheduleId: DEMO.nurse, timeZone: null, localDate: '2027-01-04', closed: true, windows: [], version: 1 });
      const open = await call.admin(day, { method: 'PUT', body: { closed: false, windows: [{ start: '10:00', end: '12:00' }] }, headers: { 'if-match': '"1"' } });
      expect([open.status, open.body.version, open.body.windows]).toEqual([200, 2, [{ weekday: null, start: '10:00', end: '12:00' }]]);
      const inconsistent = await call.admin(day, { method: 'PUT', body: { closed: true, windows: [{ start: '10:00', end: '12:00' }] } });
      expect(fieldsOf(inconsistent)).toEqual(['windows']);
      expect((await call.reader(`${base}?from=2027-01-01&to=2027-01-31`)).body.overrides).toEqual([open.body]);
      expect((await call.reader(`${base}?from=2027-02-01`)).body.overrides).toEqual([]);
      expect(fieldsOf(await call.reader(`${base}?from=2027-02-30`))).toEqual(['from']);
      expect(fieldsOf(await call.admin(`${base}/2027-13-01`, { method: 'PUT', body: { closed: true } }))).toEqual(['localDate']);
      expect((await call.admin(day, { method: 'DELETE', headers: { 'if-match': '"1"' } })).status).toBe(412);
      const deleted = await call.admin(day, { method: 'DELETE', headers: { 'if-match': '"2"' } });
      expect([deleted.status, deleted.body]).toEqual([200, { scheduleId: DEMO.nurse, localDate: '2027-01-04' }]);
      expect((await call.admin(day, { method: 'DELETE' })).status).toBe(404);
    });
  });

  describe('blocks', () => {
    const block = (resourceId: string, start: string, end: string) => ({ resourceId, start, end, reason: 'Training' });

    it('a clinician blocks the resources they staff only; readers read blocks; an admin blocks any', async () => {
      const created = await call.clinician('/api/v1/scheduling/blocks', {
        method: 'POST',
        body: block(DEMO.nurse, '2027-02-01T09:00:00Z', '2027-02-01T10:00:00Z'),
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        resourceId: DEMO.nurse,
        start: '2027-02-01T09:00:00+00:00',
        end: '2027-02-01T10:00:00+00:00',
        timeZone: 'Europe/London',
        reason: 'Training',
        createdBy: DEMO_USER_IDS.clinician,
        version: 1,
        cancelledAppointmentIds: [],
      });
      // A block has no address of its own to name.
      expect(created.headers.get('location')).toBeNull();
      for (const role of ['reader', 'student', 'bursar'] as const) {
        expect((await call[role]('/api/v1/scheduling/blocks', { method: 'POST', body: block(DEMO.nurse, '2027-02-02T09:00:00Z', '2027-02-02T10:00:00Z') })).status).toBe(403);
      }
      const overlap = await call.admin('/api/v1/scheduling/blocks', { method: 'POST', body: block(DEMO.nurse, '2027-02-01T09:30:00Z', '2027-02-01T11:00:00Z') });
      expect(overlap.status).toBe(409);

      // A resource the clinician does not staff.
      const { locationId } = (await call.reader(`/api/v1/scheduling/resources/${DEMO.nurse}`)).body;
      const unstaffed = await call.admin('/api/v1/scheduling/resources', { method: 'POST', body: { locationId, kind: 'room', name: 'Store room' } });
      const refused = await call.clinician('/api/v1/scheduling/blocks', { method: 'POST', body: block(unstaffed.body.id, '2027-02-01T09:00:00Z', '2027-02-01T10:00:00Z') });
      expect(refused.status).toBe(403);
      const byAdmin = await call.admin('/api/v1/scheduling/blocks', { method: 'POST', body: block(unstaffed.body.id, '2027-02-01T11:00:00Z', '2027-02-01T12:00:00Z') });
      expect(byAdmin.status).toBe(201);
      expect((await call.clinician(`/api/v1/scheduling/blocks/${byAdmin.body.id}`, { method: 'DELETE' })).status).toBe(403);

      // Who created a block is a staff user id, and why is often personal: staff see both, others get null.
      const listed = await everyPage(call.reader, `/api/v1/scheduling/blocks?location=${locationId}&limit=1`, 'blocks');
      const { cancelledAppointmentIds, ...own } = created.body;
      expect(cancelledAppointmentIds).toEqual([]);
      const ownForReaders = { ...own, createdBy: null, reason: null };
      expect(listed).toEqual([ownForReaders, expect.objectContaining({ id: byAdmin.body.id, createdBy: null, reason: null })]);
      expect((await call.student(`/api/v1/scheduling/blocks?location=${locationId}`)).body.blocks).toEqual(listed);
      const window = await call.reader(`/api/v1/scheduling/blocks?resource=${DEMO.nurse}&from=2027-02-01T10:00:00%2B01:00&to=2027-02-02T00:00:00Z`);
      expect(window.body.blocks).toEqual([ownForReaders]);
      const forStaff = await call.clinician(`/api/v1/scheduling/blocks?resource=${DEMO.nurse}&from=2027-02-01T10:00:00%2B01:00&to=2027-02-02T00:00:00Z`);
      expect(forStaff.body.blocks).toEqual([own]);

      expect((await call.clinician(`/api/v1/scheduling/blocks/${created.body.id}`, { method: 'DELETE', headers: { 'if-match': '"2"' } })).status).toBe(412);
      const deleted = await call.clinician(`/api/v1/scheduling/blocks/${created.body.id}`, { method: 'DELETE', headers: { 'if-match': '"1"' } });
      expect([deleted.status, deleted.body]).toEqual([200, { id: created.body.id }]);
      expect((await call.clinician(`/api/v1/scheduling/blocks/${created.body.id}`, { method: 'DELETE' })).status).toBe(404);
    });

    it('names bad fields: times without an offset, an end before the start, a list without a resource or location', async () => {
      const noOffset = await call.admin('/api/v1/scheduling/blocks', { method: 'POST', body: block(DEMO.nurse, '2027-02-03T09:00', '2027-02-03T10:00:00Z') });
      expect([noOffset.status, fieldsOf(noOffset)]).toEqual([400, ['start']]);
      const backwards = await call.admin('/api/v1/scheduling/blocks', { method: 'POST', body: block(DEMO.nurse, '2027-02-03T10:00:00Z', '2027-02-03T09:00:00Z') });
      expect([backwards.status, fieldsOf(backwards)]).toEqual([400, ['end']]);
      expect(fieldsOf(await call.reader('/api/v1/scheduling/blocks'))).toEqual(['resource']);
      expect(fieldsOf(await call.reader(`/api/v1/scheduling/blocks?resource=${DEMO.nurse}&from=2027-02-01`))).toEqual(['from']);
      expect((await call.admin('/api/v1/scheduling/blocks', { method: 'POST', body: block(randomUUID(), '2027-02-03T09:00:00Z', '2027-02-03T10:00:00Z') })).status).toBe(404);
    });
  });
});
