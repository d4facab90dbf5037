import { randomUUID } from 'node:crypto';
import { bearer, type BenchContext, type Scenario } from '../context';
import type { RequestSpec } from '../load/load-spec';

/**
 * Scheduling through the gateway (docs/SCHEDULING.md): slot search over 31 days of 20 resources, bookings by
 * 32 clients spread over 200 slots, and 32 clients fighting over 5 slots (exactly 5 may win).
 */

const RESOURCES = 20;
const DAYS = 31;

interface Slot {
  slotToken: string;
  start: string;
  resourceId: string;
}

/** A call as the demo admin, which a scenario sets up with. */
export async function call<T>(context: BenchContext, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${context.gatewayUrl}${path}`, {
    method,
    headers: { ...bearer(context.keys.admin), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A local date `days` after today (UTC), YYYY-MM-DD. */
const dateFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The policy of the bench's services: nothing refuses a booking or a cancellation. */
export const BENCH_POLICY = {
  minNoticeMinutes: 0,
  horizonDays: 90,
  holdTtlSeconds: 600,
  cancelCutoffMinutes: 0,
  rescheduleCutoffMinutes: 0,
  checkInWindowMinutes: 30,
  noShowGraceMinutes: 10,
};

/**
 * A clinic of 20 resources offering one 30-minute service, open 08:00–18:00 every day, at a location the demo
 * data made bookable: 20 slots a day each, 12,400 in the 31 days searched.
 */
async function setUpClinic(context: BenchContext): Promise<{ serviceId: string; locationId: string }> {
  const { locations } = await call<{ locations: { premiseId: string }[] }>(context, 'GET', '/api/v1/scheduling/locations');
  const locationId = locations[0].premiseId;
  const service = await call<{ id: string }>(context, 'POST', '/api/v1/scheduling/services', {
    name: 'Bench consultation',
    durationMinutes: 30,
    slotStepMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    policy: BENCH_POLICY,
  });
  for (let i = 0; i < RESOURCES; i++) {
    const resource = await call<{ id: string }>(context, 'POST', '/api/v1/scheduling/resources', {
      locationId,
      kind: 'practitioner',
      name: `Bench practitioner ${i + 1}`,
      serviceIds: [service.id],
      staffUserIds: [],
    });
    const windows = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '08:00', end: '18:00' }));
    await call(context, 'PUT', `/api/v1/scheduling/schedules/${resource.id}/rules`, { windows });
  }
  return { serviceId: service.id, locationId };
}

const searchPath = (clinic: { serviceId: string; locationId: string }, from: string, to: string, cursor?: string) =>
  `/api/v1/scheduling/slots?service=${clinic.serviceId}&location=${encodeURIComponent(clinic.locationId)}&from=${from}&to=${to}&limit=500` +
  (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');

/** Every free slot of the clinic in the searched days, page by page. */
async function freeSlots(context: BenchContext, clinic: { serviceId: string; locationId: string }, from: string, to: string): Promise<Slot[]> {
  const slots: Slot[] = [];
  let cursor: string | undefined;
  do {
    const page = await call<{ slots: Slot[]; nextCursor?: string }>(context, 'GET', searchPath(clinic, from, to, cursor));
    slots.push(...page.slots);
    cursor = page.nextCursor;
  } while (cursor);
  return slots;
}

/** A staff booking for a new student each time: a student cannot be in two places at once. */
const booking = (context: BenchContext, path: string, slotToken: string): RequestSpec => ({
  method: 'POST',
  path,
  headers: { ...bearer(context.keys.admin), 'content-type': 'application/json' },
  body: JSON.stringify({ slotToken, studentId: randomUUID() }),
});

export const scheduling: Scenario = async (context) => {
  const clinic = await setUpClinic(context);
  // Tomorrow on: today's slots may already have started.
  const from = dateFromToday(1);
  const to = dateFromToday(DAYS);

  const searches: RequestSpec[] = [{ path: searchPath(clinic, from, to), headers: bearer(context.keys.student) }];
  const search = context.record({
    scenario: `slot search, ${DAYS} days × ${RESOURCES} resources`,
    target: 'system',
    result: await context.load(context.gatewayUrl, searches),
  });
  const alone = context.record({
    scenario: `slot search, ${DAYS} days × ${RESOURCES} resources, 1 connection`,
    target: 'system',
    result: await context.load(context.gatewayUrl, searches, { connections: 1 }),
  });
  context.judge({
    scenario: 'slot search',
    figure: `p50 ${alone.p50Ms} ms, p99 ${alone.p99Ms} ms alone; ${search.requestsPerSecond.toFixed(0)} req/s at ${context.connections} connections`,
    target: '(reported)',
    met: alone.requests > 0 && search.errors === 0,
  });

  const slots = await freeSlots(context, clinic, from, to);
  // 200 slots spread over every resource and day: every 1 in (slots / 200), the rest left for the fight below.
  const stride = Math.max(1, Math.floor(slots.length / 200));
  const spread = slots.filter((_, i) => i % stride === 0).slice(0, 200);
  const bookings = context.record({
    scenario: `booking, ${context.connections} clients over ${spread.length} slots`,
    target: 'system',
    result: await context.load(
      context.gatewayUrl,
      spread.map((slot) => booking(context, '/api/v1/appointments', slot.slotToken)),
      { amount: spread.length },
    ),
  });
  context.judge({
    scenario: 'booking throughput',
    figure: `${bookings.requestsPerSecond.toFixed(0)} bookings/s, ${bookings.statusCodes['201'] ?? 0} of ${spread.length} booked`,
    target: 'every slot booked once',
    met: bookings.statusCodes['201'] === spread.length,
  });

  const contested = slots.filter((_, i) => i % stride !== 0).slice(0, 5);
  // Every client tries every contested slot, each time for another student.
  const rounds = context.connections * contested.length;
  const fight = context.record({
    scenario: `${context.connections} clients fighting over ${contested.length} slots`,
    target: 'system',
    result: await context.load(
      context.gatewayUrl,
      Array.from({ length: rounds }, (_, i) => booking(context, '/api/v1/appointments/holds', contested[i % contested.length].slotToken)),
      { amount: rounds, expected: [409] },
    ),
  });
  const winners = fight.statusCodes['201'] ?? 0;
  context.note('contested slots: winners', winners, 'holds');
  context.judge({
    scenario: 'contested slots',
    figure: `${winners} winners of ${rounds} holds on ${contested.length} slots`,
    target: `exactly ${contested.length}`,
    met: winners === contested.length && fight.errors === 0,
  });
};
