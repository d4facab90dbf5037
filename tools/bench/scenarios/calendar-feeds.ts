import { CALENDAR_FEED_LIMITS, DEMO_USER_IDS } from '@libs/contracts';
import { withPgClient } from '@libs/testing';
import { bearer, type Scenario } from '../context';
import type { RequestSpec } from '../load/load-spec';
import { BENCH_POLICY, call } from './scheduling';

/**
 * A clinician's calendar feed of CALENDAR_FEED_LIMITS.events appointments (docs/SCHEDULING.md, "Calendar feeds"):
 * what one poll by a calendar app costs, rendered whole. Each URL may be read readsPerMinute times a minute, so the
 * load goes round the clinician's and the admin's every feed of the resource, each read at most that many times.
 */
export const calendarFeeds: Scenario = async (context) => {
  const { feedsPerUser, readsPerMinute, events } = CALENDAR_FEED_LIMITS;
  const { locations } = await call<{ locations: { premiseId: string; timeZone: string }[] }>(context, 'GET', '/api/v1/scheduling/locations');
  const [location] = locations;
  const service = await call<{ id: string }>(context, 'POST', '/api/v1/scheduling/services', {
    name: 'Bench feed consultation',
    durationMinutes: 30,
    slotStepMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    policy: { ...BENCH_POLICY, reminders: ['PT24H', 'PT1H'] },
  });
  const resource = await call<{ id: string }>(context, 'POST', '/api/v1/scheduling/resources', {
    locationId: location.premiseId,
    kind: 'practitioner',
    name: 'Bench feed practitioner',
    serviceIds: [service.id],
    staffUserIds: [DEMO_USER_IDS.clinician],
  });
  // Written straight into scheduling's database: a full feed's worth, every few hours from a month ago on, each its own student.
  await withPgClient(context.databaseUrl('scheduling'), (client) =>
    client.query(
      `INSERT INTO appointments (location_id, resource_id, service_id, student_id, status, span, time_zone, policy, booked_by)
       SELECT $1, $2, $3, gen_random_uuid()::text, CASE WHEN i % 10 = 0 THEN 'cancelled' ELSE 'booked' END,
              tstzrange(start, start + interval '30 minutes'),
              $4, (SELECT policy FROM services WHERE id = $3), 'bench'
         FROM generate_series(1, $5::int) AS i,
              -- Whole seconds, as the service writes times (to the millisecond); now() has microseconds.
              LATERAL (SELECT date_trunc('hour', now()) - interval '30 days' + i * interval '3 hours' AS start) AS t`,
      [location.premiseId, resource.id, service.id, location.timeZone, events],
    ),
  );
  const feedOf = async (key: string, body: object) => {
    const response = await fetch(`${context.gatewayUrl}/api/v1/calendar/feeds`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST /api/v1/calendar/feeds: ${response.status} ${await response.text()}`);
    return new URL(((await response.json()) as { url: string }).url).pathname;
  };
  const paths: string[] = [];
  for (let i = 0; i < feedsPerUser; i++) paths.push(await feedOf(context.keys.clinician, {}));
  for (let i = 0; i < feedsPerUser; i++) paths.push(await feedOf(context.keys.admin, { resourceId: resource.id }));

  // One read first, to check the feed is the whole of it.
  const checked = paths.pop() as string;
  const sample = await (await fetch(`${context.gatewayUrl}${checked}`)).text();
  const shown = sample.split('BEGIN:VEVENT').length - 1;
  context.note('calendar feed: events', shown, 'events');
  context.note('calendar feed: size', Math.round(Buffer.byteLength(sample) / 1024), 'KiB');

  const reads: RequestSpec[] = paths.map((path) => ({ path, headers: {} }));
  // Round-robin over the feeds, each read as often as its bucket allows: no read is a 429.
  const amount = context.smoke ? paths.length : paths.length * readsPerMinute;
  const result = context.record({
    scenario: `calendar feed, ${events} appointments`,
    target: 'system',
    result: await context.load(context.gatewayUrl, reads, { connections: 1, amount, warmup: 0 }),
  });
  context.judge({
    scenario: 'calendar feed',
    figure: `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms for ${shown} events (${result.requests} reads)`,
    target: '(reported)',
    met: shown === events && result.errors === 0,
  });
};
