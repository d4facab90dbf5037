import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import nodeIcal, { type VEvent } from 'node-ical';
import { CALENDAR_FEED_LIMITS } from '@libs/contracts';
import { startSystem, withPgClient, type RunningSystem } from '@libs/testing';
import { api, type ApiResponse } from '../http';
import { ADMIN, anotherStudent, anotherUser, APPOINTMENTS, freeSlots, openClinic, SchedulingCaller, type Clinic } from '../appointments-rest/appointment-helpers';

const FEEDS = '/api/v1/calendar/feeds';
const REMINDERS = ['PT24H', 'PT30M'];

/** An event as each parser reads it: what a feed and the appointment's own `.ics` must agree on. */
interface Read {
  uid: string;
  sequence: number;
  status: string;
  start: number;
  end: number;
  zone: string | undefined;
  alarms: number[];
}

function readWithIcalJs(text: string): Read[] {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((vevent) => {
    const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
    return {
      uid: String(vevent.getFirstPropertyValue('uid')),
      sequence: Number(vevent.getFirstPropertyValue('sequence')),
      status: String(vevent.getFirstPropertyValue('status')),
      start: start.toJSDate().getTime(),
      end: (vevent.getFirstPropertyValue('dtend') as ICAL.Time).toJSDate().getTime(),
      zone: start.zone?.tzid,
      alarms: vevent.getAllSubcomponents('valarm').map((alarm) => (alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds()),
    };
  });
}

/** node-ical's reading of the same text: its UIDs, instants, zones and statuses, by UID. */
function readWithNodeIcal(text: string) {
  return Object.values(nodeIcal.sync.parseICS(text))
    .filter((component): component is VEvent => component?.type === 'VEVENT')
    .map((event) => ({
      uid: event.uid,
      sequence: Number(event.sequence),
      status: String(event.status),
      start: event.start.getTime(),
      end: event.end?.getTime(),
      zone: (event.start as Date & { tz?: string }).tz,
    }));
}

/** Subscribable calendar feeds (docs/SCHEDULING.md, "Calendar feeds"), through the gateway as calendar apps read them. */
describe('calendar feeds', () => {
  let system: RunningSystem;
  let caller: SchedulingCaller;
  let clinic: Clinic;

  beforeAll(async () => {
    system = await startSystem();
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
    // Two-hour appointments: one of them spans London's spring-forward night. No cut-offs: a test cancels at once.
    clinic = await openClinic(system, caller, {
      code: 'PRM-0041',
      durationMinutes: 120,
      stepMinutes: 30,
      policy: { cancelCutoffMinutes: 0, rescheduleCutoffMinutes: 0, reminders: REMINDERS },
    });
  }, 120_000);

  afterAll(async () => {
    caller?.close();
    await system?.shutdown();
  });

  const as = (key: string) => (path: string, options: Parameters<typeof api>[2] = {}) => api(system.gatewayUrl, path, { key, ...options });
  const newFeed = async (key: string, body: object = {}) => {
    const created = await as(key)(FEEDS, { method: 'POST', body });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${FEEDS}/${created.body.id}`);
    return { id: created.body.id as string, path: new URL(created.body.url).pathname, url: created.body.url as string };
  };
  /** A feed read as a calendar app does: no header but what it is told to send. */
  const read = (path: string, headers: Record<string, string> = {}) => api(system.gatewayUrl, path, { headers });
  const book = async (key: string, slotToken: string) => {
    const booked = await as(key)(APPOINTMENTS, { method: 'POST', body: { slotToken } });
    expect(booked.status).toBe(201);
    return booked.body as { id: string; start: string; end: string };
  };
  /** What a response shows besides what differs per request by design: its time, its request id (and so the tag of a body holding it). */
  const shown = (answer: ApiResponse) => {
    const headers = Object.fromEntries([...answer.headers].filter(([name]) => !['date', 'x-request-id', 'traceparent', 'etag'].includes(name)));
    return { status: answer.status, headers, body: { ...answer.body, requestId: undefined } };
  };

  it('shows a student’s appointments as their own .ics files do, to ical.js and node-ical alike, with ETag and 304', async () => {
    const { key } = await anotherStudent(system);
    // Two-hour slots every half hour: the fifth is the first that does not overlap the first.
    const slots = await freeSlots(system, clinic, new Date(Date.now() + 3_600_000));
    const [first, third] = [slots[0], slots[4]];
    // Spring forward in London: 00:30 GMT to 03:30 BST is two hours, across the change.
    const night = await freeSlots(system, clinic, new Date('2027-03-28T00:30:00Z'));
    const across = night.find((slot) => slot.start.startsWith('2027-03-28T00:30'));
    expect(across).toBeDefined();
    const booked = await book(key, first.slotToken);
    const spanning = await book(key, (across as { slotToken: string }).slotToken);
    const cancelled = await book(key, third.slotToken);
    expect((await as(key)(`${APPOINTMENTS}/${cancelled.id}/cancel`, { method: 'POST', body: { reasonCode: 'pat-crs' } })).status).toBe(200);
    const [holdSlot] = await freeSlots(system, clinic, new Date(Date.now() + 86_400_000));
    const hold = await as(key)(`${APPOINTMENTS}/holds`, { method: 'POST', body: { slotToken: holdSlot.slotToken } });
    expect(hold.status).toBe(201);

    const feed = await newFeed(key);
    expect(feed.url).toMatch(/^http:\/\/[^/]+\/api\/v1\/calendar\/feeds\/cal_[A-Za-z0-9_-]{43}\.ics$/);
    const listed = await as(key)(FEEDS);
    expect(listed.body.feeds).toEqual([{ id: feed.id, createdAt: expect.any(String) }]);
    expect(JSON.stringify(listed.body)).not.toContain(feed.path.split('/').pop()?.replace('.ics', ''));

    const answer = await read(feed.path);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('private, no-cache');
    const etag = answer.headers.get('etag') as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    const own = await Promise.all([booked.id, cancelled.id, spanning.id].map(async (id) => (await as(key)(`${APPOINTMENTS}/${id}/ics`)).body as string));
    const expected = own.flatMap(readWithIcalJs);
    expect(readWithIcalJs(answer.body)).toEqual(expected);
    expect(readWithNodeIcal(answer.body)).toEqual(own.flatMap(readWithNodeIcal));
    // By start: the booked one and the cancelled one (a later slot) this week, then the one next spring. No hold.
    expect(expected.map((event) => [event.uid.split('@')[0], event.status, event.zone, event.alarms])).toEqual([
      [booked.id, 'CONFIRMED', 'Europe/London', [-86_400, -1_800]],
      [cancelled.id, 'CANCELLED', 'Europe/London', []],
      [spanning.id, 'CONFIRMED', 'Europe/London', [-86_400, -1_800]],
    ]);
    const acrossTheChange = expected.find((event) => event.uid.startsWith(spanning.id));
    expect(acrossTheChange).toMatchObject({ start: Date.parse('2027-03-28T00:30:00Z'), end: Date.parse('2027-03-28T02:30:00Z') });
    expect(answer.body).toContain('DTSTART;TZID=Europe/London:20270328T003000');
    expect(answer.body).toContain('DTEND;TZID=Europe/London:20270328T033000');
    expect(answer.body.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);

    const again = await read(feed.path, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
  });

  it('answers every token of no live feed, wrong, tampered, revoked, malformed or of an owner who lost the role, with the same 404', async () => {
    const { key } = await anotherStudent(system);
    const live = await newFeed(key);
    const revoked = await newFeed(key);
    const demoted = await anotherStudent(system);
    const ofDemoted = await newFeed(demoted.key);
    expect((await read(ofDemoted.path)).status).toBe(200);
    expect((await as(key)(`${FEEDS}/${revoked.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await as(system.keys.admin)(`/api/v1/auth/users/${demoted.userId}`, { method: 'PATCH', body: { role: 'reader' } })).status).toBe(200);
    // Another user cannot revoke it: a 404, as for a feed that does not exist.
    expect((await as(system.keys.student)(`${FEEDS}/${live.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await as(key)(FEEDS)).body.feeds.map((feed: { id: string }) => feed.id)).toEqual([live.id]);

    const token = live.path.slice(`${FEEDS}/`.length, -'.ics'.length);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const bad = [
      `${FEEDS}/cal_${'A'.repeat(43)}.ics`,
      `${FEEDS}/${tampered}.ics`,
      revoked.path,
      ofDemoted.path,
      `${FEEDS}/x.ics`,
      `${FEEDS}/%F0%9F%98%80%20%22'%3B.ics`,
      `${FEEDS}/${'a'.repeat(4_000)}.ics`,
    ];
    const answers = await Promise.all(bad.map((path) => read(path)));
    expect(answers.map((answer) => answer.status)).toEqual(bad.map(() => 404));
    const [first, ...rest] = answers.map(shown);
    for (const other of rest) expect(other).toEqual(first);
    expect(first.body).toMatchObject({ status: 404, detail: 'no such calendar feed' });
    expect((await read(live.path)).status).toBe(200);
    // A path that is not even valid percent-encoding (a lone surrogate's bytes, NUL) is refused before any route: a 400.
    for (const path of [`${FEEDS}/%ED%A0%80.ics`, `${FEEDS}/%00.ics`, `${FEEDS}/%.ics`]) {
      const refused = await read(path);
      expect([400, 404]).toContain(refused.status);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('refuses a flood on one URL with 429 and Retry-After, while another user’s feed still answers', async () => {
    const flooded = await newFeed(system.keys.student);
    const other = await newFeed((await anotherStudent(system)).key);
    const answers: ApiResponse[] = [];
    for (let i = 0; i < CALENDAR_FEED_LIMITS.readsPerMinute + 3; i += 1) answers.push(await read(flooded.path));
    expect(answers.slice(0, CALENDAR_FEED_LIMITS.readsPerMinute).map((answer) => answer.status)).toEqual(Array(CALENDAR_FEED_LIMITS.readsPerMinute).fill(200));
    const refused = answers[CALENDAR_FEED_LIMITS.readsPerMinute];
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await read(other.path)).status).toBe(200);
  });

  it('shows a clinician only the appointments of the resources they staff, as staffed when the feed is read', async () => {
    const nurse = await anotherUser(system, 'clinician');
    const elsewhere = await openClinic(system, caller, { code: 'PRM-0042', staff: [nurse.userId], policy: { reminders: [] } });
    const [here] = await freeSlots(system, clinic, new Date(Date.now() + 7_200_000));
    const [there] = await freeSlots(system, elsewhere, new Date(Date.now() + 7_200_000));
    const { key } = await anotherStudent(system);
    const mine = await book(key, here.slotToken);
    const theirs = await book(key, there.slotToken);
    const demoFeed = await newFeed(system.keys.clinician);
    const nurseFeed = await newFeed(nurse.key);
    const uids = async (path: string) => readWithIcalJs((await read(path)).body).map((event) => event.uid.split('@')[0]);
    const demoSees = await uids(demoFeed.path);
    expect(demoSees).toContain(mine.id);
    expect(demoSees).not.toContain(theirs.id);
    expect(await uids(nurseFeed.path)).toEqual([theirs.id]);
    // A resource's feed: an admin names any; a clinician only one they staff.
    expect(await uids((await newFeed(system.keys.admin, { resourceId: elsewhere.resourceIds[0] })).path)).toEqual([theirs.id]);
    expect((await as(system.keys.clinician)(FEEDS, { method: 'POST', body: { resourceId: elsewhere.resourceIds[0] } })).status).toBe(403);
    // The nurse stops staffing the resource: their feed, unchanged, shows it no more.
    await caller.call(ADMIN, 'updateResource', { id: elsewhere.resourceIds[0], expectedVersion: 0, staffUserIds: { ids: [] } });
    expect(await uids(nurseFeed.path)).toEqual([]);
  });

  it(`caps feeds at ${CALENDAR_FEED_LIMITS.feedsPerUser} live ones a user (409), a revoked one freeing its place`, async () => {
    const { key } = await anotherStudent(system);
    const feeds = [];
    for (let i = 0; i < CALENDAR_FEED_LIMITS.feedsPerUser; i += 1) feeds.push(await newFeed(key));
    const refused = await as(key)(FEEDS, { method: 'POST', body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(`at most ${CALENDAR_FEED_LIMITS.feedsPerUser}`);
    expect((await as(key)(`${FEEDS}/${feeds[0].id}`, { method: 'DELETE' })).status).toBe(204);
    await newFeed(key);
  });

  it(`shows ${CALENDAR_FEED_LIMITS.pastDays} days back to ${CALENDAR_FEED_LIMITS.futureDays} ahead, recent cancellations, no holds, at most ${CALENDAR_FEED_LIMITS.events} events, the nearest first`, async () => {
    const windowed = await anotherStudent(system);
    const crowded = await anotherStudent(system);
    const day = 86_400_000;
    const now = Date.now();
    type Seed = { student: string; startMs: number; status?: string; cancelledDaysAgo?: number };
    const seeds: Seed[] = [
      { student: windowed.userId, startMs: now - (CALENDAR_FEED_LIMITS.pastDays + 1) * day },
      { student: windowed.userId, startMs: now - (CALENDAR_FEED_LIMITS.pastDays - 1) * day },
      { student: windowed.userId, startMs: now + (CALENDAR_FEED_LIMITS.futureDays - 1) * day },
      { student: windowed.userId, startMs: now + (CALENDAR_FEED_LIMITS.futureDays + 1) * day },
      { student: windowed.userId, startMs: now + 2 * day, status: 'held' },
      { student: windowed.userId, startMs: now + 3 * day, status: 'cancelled', cancelledDaysAgo: CALENDAR_FEED_LIMITS.cancelledDays + 1 },
      { student: windowed.userId, startMs: now + 4 * day, status: 'cancelled', cancelledDaysAgo: CALENDAR_FEED_LIMITS.cancelledDays - 1 },
      // The farthest is the one left out.
      ...Array.from({ length: CALENDAR_FEED_LIMITS.events + 1 }, (_, i) => ({ student: crowded.userId, startMs: now + (i + 1) * 3_600_000 })),
    ];
    const ids = await withPgClient(system.databaseUrl('scheduling'), async (client) => {
      const { rows } = await client.query(
        `INSERT INTO appointments (location_id, resource_id, service_id, student_id, status, span, time_zone, hold_expires_at, policy, booked_by, cancelled_at)
         SELECT $1, $2, $3, s.student, s.status, tstzrange(to_timestamp(s.start_ms / 1000), to_timestamp(s.start_ms / 1000 + 1800)), 'Europe/London',
                CASE WHEN s.status = 'held' THEN now() + interval '5 minutes' END, policy, s.student,
                CASE WHEN s.cancelled_days IS NOT NULL THEN now() - make_interval(days => s.cancelled_days) END
           FROM unnest($4::text[], $5::float8[], $6::text[], $7::int[]) WITH ORDINALITY AS s(student, start_ms, status, cancelled_days, n)
           CROSS JOIN (SELECT policy FROM services WHERE id = $3) p
          ORDER BY s.n
         RETURNING id::text`,
        [clinic.locationId, clinic.resourceIds[0], clinic.serviceId, seeds.map((s) => s.student), seeds.map((s) => s.startMs),
          seeds.map((s) => s.status ?? 'booked'), seeds.map((s) => s.cancelledDaysAgo ?? null)],
      );
      return rows.map((row) => row.id as string);
    });
    const uids = async (key: string) => readWithIcalJs((await read((await newFeed(key)).path)).body).map((event) => event.uid.split('@')[0]);
    expect(await uids(windowed.key)).toEqual([ids[1], ids[6], ids[2]]);
    const crowdedIds = ids.slice(7);
    expect(await uids(crowded.key)).toEqual(crowdedIds.slice(0, CALENDAR_FEED_LIMITS.events));
  }, 60_000);

  it('needs a signed-in owner to make, list and revoke feeds, and refuses a reader', async () => {
    expect((await api(system.gatewayUrl, FEEDS)).status).toBe(401);
    expect((await as(system.keys.reader)(FEEDS, { method: 'POST', body: {} })).status).toBe(403);
    expect((await as(system.keys.student)(FEEDS, { method: 'POST', body: { resourceId: 'nope' } })).status).toBe(400);
    expect((await as(system.keys.student)(`${FEEDS}/${randomUUID()}`, { method: 'DELETE' })).status).toBe(404);
  });
});
