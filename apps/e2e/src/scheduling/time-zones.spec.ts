import { GrpcStatus } from '@libs/grpc';
import { startSystem, type RunningSystem } from '@libs/testing';
import { ADMIN, SchedulingCaller, setUpClinic, student } from './scheduling-client';

/**
 * The daylight-saving cases through the service, on future dates (past ones cannot be booked; the conversion
 * layer's own tests cover 2026's). Hours are date overrides, so each case is one date.
 */
describe('slots across daylight-saving changes, through the service', () => {
  let system: RunningSystem;
  let caller: SchedulingCaller;

  beforeAll(async () => {
    system = await startSystem({ only: ['reference', 'scheduling'] });
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
  }, 120_000);

  afterAll(async () => {
    caller?.close();
    await system?.shutdown();
  });

  async function clinicWith(code: string, timeZone: string, overrides: Record<string, [string, string][]>, hours: [number, string, string][] = []) {
    const clinic = await setUpClinic(system, caller, { code, timeZone, hours });
    for (const [localDate, windows] of Object.entries(overrides)) {
      await caller.call(ADMIN, 'putOverride', { scheduleId: clinic.resourceIds[0], localDate, windows: windows.map(([start, end]) => ({ start, end })) });
    }
    return clinic;
  }

  const starts = async (clinic: { serviceId: string; locationId: string }, date: string) =>
    (await caller.call(ADMIN, 'searchSlots', { serviceId: clinic.serviceId, locationId: clinic.locationId, from: date, to: date })).slots.map((s) => s.start);

  it('New York 2027-03-14 and 2027-11-07', async () => {
    const clinic = await clinicWith('PRM-0031', 'America/New_York', {
      '2027-03-14': [['01:00', '04:00'], ['09:00', '10:00']],
      '2027-11-07': [['00:00', '03:00']],
    });
    expect(await starts(clinic, '2027-03-14')).toEqual([
      '2027-03-14T01:00:00-05:00', '2027-03-14T01:30:00-05:00', '2027-03-14T03:00:00-04:00', '2027-03-14T03:30:00-04:00',
      // 09:00 that day is 13:00Z.
      '2027-03-14T09:00:00-04:00', '2027-03-14T09:30:00-04:00',
    ]);
    expect(await starts(clinic, '2027-11-07')).toEqual([
      '2027-11-07T00:00:00-04:00', '2027-11-07T00:30:00-04:00', '2027-11-07T01:00:00-04:00', '2027-11-07T01:30:00-04:00',
      '2027-11-07T01:00:00-05:00', '2027-11-07T01:30:00-05:00', '2027-11-07T02:00:00-05:00', '2027-11-07T02:30:00-05:00',
    ]);
  });

  it('Lord Howe 2027-04-04 and 2027-10-03 (30-minute changes), booked at the second 01:30', async () => {
    const clinic = await clinicWith('PRM-0032', 'Australia/Lord_Howe', { '2027-04-04': [['01:00', '03:00']], '2027-10-03': [['01:00', '04:00']] });
    expect(await starts(clinic, '2027-04-04')).toEqual([
      '2027-04-04T01:00:00+11:00', '2027-04-04T01:30:00+11:00', '2027-04-04T01:30:00+10:30', '2027-04-04T02:00:00+10:30', '2027-04-04T02:30:00+10:30',
    ]);
    expect(await starts(clinic, '2027-10-03')).toEqual([
      '2027-10-03T01:00:00+10:30', '2027-10-03T01:30:00+10:30', '2027-10-03T02:30:00+11:00', '2027-10-03T03:00:00+11:00', '2027-10-03T03:30:00+11:00',
    ]);
    const { slots } = await caller.call(ADMIN, 'searchSlots', { serviceId: clinic.serviceId, locationId: clinic.locationId, from: '2027-04-04', to: '2027-04-04' });
    const { appointment } = await caller.call(student('6a2f1f4e-0000-4000-8000-000000000001'), 'bookAppointment', { slotToken: slots[2].slotToken });
    expect(appointment).toMatchObject({ start: '2027-04-04T01:30:00+10:30', end: '2027-04-04T02:00:00+10:30', timeZone: 'Australia/Lord_Howe' });
    expect(await starts(clinic, '2027-04-04')).not.toContain('2027-04-04T01:30:00+10:30');
    expect(await starts(clinic, '2027-04-04')).toContain('2027-04-04T01:30:00+11:00');
  });

  it('Kolkata (+05:30)', async () => {
    const clinic = await clinicWith('PRM-0033', 'Asia/Kolkata', {}, [[0, '09:00', '10:00']]);
    expect(await starts(clinic, '2027-01-05')).toEqual(['2027-01-05T09:00:00+05:30', '2027-01-05T09:30:00+05:30']);
  });

  it('a viewer in Tokyo browsing a London clinic gets the London slots of the Tokyo day, on both clocks', async () => {
    const clinic = await clinicWith('PRM-0034', 'Europe/London', {}, [[0, '09:00', '17:00']]);
    const { slots } = await caller.call(student('6a2f1f4e-0000-4000-8000-000000000002'), 'searchSlots', {
      serviceId: clinic.serviceId, locationId: clinic.locationId, from: '2027-07-01', to: '2027-07-01', timeZone: 'Asia/Tokyo',
    });
    expect(slots).toHaveLength(16);
    expect(slots[0]).toMatchObject({ start: '2027-06-30T16:00:00+01:00', viewerStart: '2027-07-01T00:00:00+09:00', timeZone: 'Europe/London' });
    expect(slots[2]).toMatchObject({ start: '2027-07-01T09:00:00+01:00', viewerStart: '2027-07-01T17:00:00+09:00' });
    expect(slots[15]).toMatchObject({ start: '2027-07-01T15:30:00+01:00', viewerEnd: '2027-07-02T00:00:00+09:00' });

    // The same slots, five a page, with signed cursors bound to the search.
    const search = { serviceId: clinic.serviceId, locationId: clinic.locationId, from: '2027-07-01', to: '2027-07-01', timeZone: 'Asia/Tokyo', limit: 5 };
    const paged: string[] = [];
    let cursor = '';
    do {
      const page = await caller.call(ADMIN, 'searchSlots', { ...search, cursor });
      paged.push(...page.slots.map((s) => s.start));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(slots.map((s) => s.start));
    const { nextCursor } = await caller.call(ADMIN, 'searchSlots', search);
    expect(await caller.refusal(ADMIN, 'searchSlots', { ...search, to: '2027-07-02', cursor: nextCursor })).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT, details: expect.stringMatching(/^cursor/),
    });
  });

  it('names the next free slot when a whole range has none', async () => {
    const clinic = await clinicWith('PRM-0039', 'America/New_York', {}, [[1, '09:00', '10:00'], [3, '14:00', '15:00']]);
    await caller.call(ADMIN, 'putOverride', { scheduleId: clinic.resourceIds[0], localDate: '2027-01-11', closed: true });
    const found = await caller.call(ADMIN, 'searchSlots', { serviceId: clinic.serviceId, locationId: clinic.locationId, from: '2027-01-11', to: '2027-01-12' });
    expect(found.slots).toEqual([]);
    expect(found.nextAvailable).toMatchObject({ start: '2027-01-13T14:00:00-05:00', timeZone: 'America/New_York', resourceId: clinic.resourceIds[0] });
  });

  it('refuses times without an offset, ranges over 31 days, unknown zones and tampered tokens, naming the field', async () => {
    const clinic = await clinicWith('PRM-0035', 'Europe/London', {}, [[0, '09:00', '17:00']]);
    const search = { serviceId: clinic.serviceId, locationId: clinic.locationId };
    const field = async (refusal: Promise<{ code: number; details: string }>) => refusal;
    expect(await field(caller.refusal(ADMIN, 'searchSlots', { ...search, from: '2027-03-08T09:00', to: '2027-03-09T09:00Z' }))).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT, details: expect.stringMatching(/^from: must be an ISO 8601 instant with an offset/),
    });
    expect(await caller.refusal(ADMIN, 'searchSlots', { ...search, from: '2027-01-01', to: '2027-02-01' })).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT, details: expect.stringMatching(/^to: must be at most 31 days/),
    });
    expect(await caller.refusal(ADMIN, 'searchSlots', { ...search, from: '2027-01-01', to: '2027-01-02', timeZone: 'Mars/Olympus' })).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT, details: expect.stringMatching(/^timeZone/),
    });
    expect(await caller.refusal(ADMIN, 'putLocation', { premiseId: clinic.locationId, timeZone: '+05:00' })).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT, details: expect.stringMatching(/^timeZone/),
    });
    const [slot] = (await caller.call(ADMIN, 'searchSlots', { ...search, from: '2027-01-04', to: '2027-01-04' })).slots;
    const [payload, signature] = slot.slotToken.split('.');
    const forged = `${Buffer.from(Buffer.from(payload, 'base64url').toString().replace(/\d{13}/, '1893456000000')).toString('base64url')}.${signature}`;
    for (const token of [forged, 'x'.repeat(100_000), '\ud800', 'a\u0000.b']) {
      expect(await caller.refusal(student('6a2f1f4e-0000-4000-8000-000000000003'), 'holdSlot', { slotToken: token })).toMatchObject({
        code: GrpcStatus.INVALID_ARGUMENT, details: expect.stringMatching(/^slotToken/),
      });
    }
    expect(await caller.refusal(ADMIN, 'putLocation', { premiseId: '99999999', timeZone: 'Europe/London' })).toMatchObject({ code: GrpcStatus.NOT_FOUND });
  });
});
