/**
 * Appointment reminders (docs/SCHEDULING.md, "Reminders"): how fast the scheduling instances' sweepers turn due
 * reminders into `appointment.reminder` events, and how long after its due time each one is. The booked
 * appointments and their reminder rows are written straight into scheduling's database (100,000 bookings through
 * the API would measure booking, not reminders); the sweep, its checks and the outbox are the service's own.
 * A reminder's lag is its outbox row's commit time (its transaction's clock) minus its due time.
 */
import { Client } from 'pg';
import type { BenchContext, Scenario } from '../context';
import { percentile } from './webhook-fixtures';

/** The issue's figures: 100,000 reminders, falling due at 200 a second; p99 of the lag within 5 s. */
const REMINDERS = 100_000;
const DUE_PER_SECOND = 200;
const P99_TARGET_MS = 5_000;
const OFFSET = 'PT1M';

async function withScheduling<T>(context: BenchContext, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: context.databaseUrl('scheduling') });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A bookable resource and a service it offers, from the demo data scheduling seeds once reference answers. */
async function someResource(client: Client): Promise<{ resourceId: string; locationId: string; serviceId: string; policy: unknown }> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const { rows } = await client.query(
      `SELECT r.id::text AS "resourceId", r.location_id AS "locationId", s.id::text AS "serviceId", s.policy
         FROM resources r JOIN resource_services rs ON rs.resource_id = r.id JOIN services s ON s.id = rs.service_id LIMIT 1`,
    );
    if (rows[0]) return rows[0];
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('scheduling has no resource offering a service (demo data not seeded?)');
}

/**
 * Writes `count` booked appointments of a tag, and one reminder each, due `startsInMs` from the database's now,
 * `DUE_PER_SECOND` apart (or all at once when `spread` is false). They take no allocation: no booker competes
 * for their time, and the sweep reads only the appointment.
 */
async function writeDue(client: Client, count: number, tag: string, startsInMs: number, spread: boolean): Promise<void> {
  const resource = await someResource(client);
  const perReminderMs = spread ? 1_000 / DUE_PER_SECOND : 0;
  await client.query('BEGIN');
  await client.query(
    `WITH made AS (
       INSERT INTO appointments (location_id, resource_id, service_id, student_id, status, span, time_zone, policy, booked_by)
       SELECT $1, $2::uuid, $3::uuid, $4::text || i, 'booked',
              -- Whole milliseconds, as the service stores every instant.
              tstzrange(date_trunc('milliseconds', now() + make_interval(secs => ($5::float8 + i * $6::float8) / 1000) + interval '1 minute'),
                        date_trunc('milliseconds', now() + make_interval(secs => ($5::float8 + i * $6::float8) / 1000) + interval '31 minutes')),
              'UTC', $7::jsonb || jsonb_build_object('reminders', jsonb_build_array($8::text)), $4::text || i
         FROM generate_series(1, $9::int) AS i
       RETURNING id, version, lower(span) AS start
     )
     INSERT INTO appointment_reminders (appointment_id, version, before_start, due_at)
     SELECT id, version, $8::text, start - $8::interval FROM made`,
    [resource.locationId, resource.resourceId, resource.serviceId, `bench-reminder-${tag}-`, startsInMs, perReminderMs, JSON.stringify(resource.policy), OFFSET, count],
  );
  await client.query('COMMIT');
}

/** Waits until every reminder of a tag has its event, and answers each one's lag behind its due time (ms). */
async function lagsOf(client: Client, tag: string, count: number, timeoutMs: number): Promise<{ lags: number[]; firstDue: number; lastEvent: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await client.query<{ lag_ms: number; due_ms: number; sent_ms: number }>(
      `SELECT (extract(epoch FROM o.created_at - (lower(a.span) - $2::interval)) * 1000)::float8 AS lag_ms,
              (extract(epoch FROM lower(a.span) - $2::interval) * 1000)::float8 AS due_ms,
              (extract(epoch FROM o.created_at) * 1000)::float8 AS sent_ms
         FROM outbox o JOIN appointments a ON a.id = (o.payload->'after'->>'id')::uuid
        WHERE o.routing_key = 'appointment.reminder' AND a.student_id LIKE $1`,
      [`bench-reminder-${tag}-%`, OFFSET],
    );
    if (rows.length >= count || Date.now() > deadline) {
      return {
        lags: rows.map((row) => Math.max(0, row.lag_ms)),
        firstDue: Math.min(...rows.map((row) => row.due_ms)),
        lastEvent: Math.max(...rows.map((row) => row.sent_ms)),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

export const reminders: Scenario = (context) =>
  withScheduling(context, async (client) => {
    const count = context.smoke ? 1_000 : REMINDERS;

    // Steady: reminders fall due at 200 a second, from 5 s from now; each should go out within the goal.
    await writeDue(client, count, 'steady', 5_000, true);
    const dueSeconds = count / DUE_PER_SECOND;
    const steady = await lagsOf(client, 'steady', count, (dueSeconds + 120) * 1_000);
    const p50 = percentile(steady.lags, 50);
    const p99 = percentile(steady.lags, 99);
    const missing = count - steady.lags.length;
    // In the report's terms a "request" is one reminder turned into its event, its latency the lag behind its due time.
    context.record({
      scenario: `reminder sweep, ${count} due at ${DUE_PER_SECOND} a second`,
      target: 'system',
      result: {
        requestsPerSecond: steady.lags.length / Math.max((steady.lastEvent - steady.firstDue) / 1_000, 0.001),
        p50Ms: p50,
        p99Ms: p99,
        requests: steady.lags.length,
        errors: missing,
        statusCodes: {},
      },
    });
    context.note('reminder lag behind due time, p50', p50, 'ms');
    context.note('reminder lag behind due time, p99', p99, 'ms');
    context.judge({
      scenario: 'reminder sweep lag',
      figure: `p50 ${p50} ms, p99 ${p99} ms over ${steady.lags.length} of ${count} reminders due at ${DUE_PER_SECOND} a second${missing ? `, ${missing} not sent` : ''}`,
      target: `p99 ≤ ${P99_TARGET_MS} ms`,
      met: missing === 0 && p99 <= P99_TARGET_MS,
    });

    // A backlog: all due at once (the instances were down, say): how fast they drain.
    await writeDue(client, count, 'backlog', -60_000, false);
    const started = Date.now();
    const backlog = await lagsOf(client, 'backlog', count, 600_000);
    const seconds = (backlog.lastEvent - started) / 1_000;
    const rate = backlog.lags.length / Math.max(seconds, 0.001);
    context.note('reminder backlog drained', rate, 'per s');
    console.log(`reminders: steady p50 ${p50} ms, p99 ${p99} ms; a backlog of ${count} drained at ${rate.toFixed(0)} a second (${seconds.toFixed(1)} s)`);
  });
