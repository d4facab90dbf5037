import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { QueryTypes, type Sequelize } from 'sequelize';
import { catalogueV1, DEMO_USER_IDS, reminderOffsetMs, schedulingV1 } from '@libs/contracts';
import { openServiceDatabase } from '@libs/db';
import { callUnary, createClient, outgoingMetadata, type Actor, type UnaryMethod } from '@libs/grpc';
import { actingAs, startSystem, type RunningSystem } from '@libs/testing';
import { migrations } from '../migrations';
import { sweepDueReminders } from './reminder-sweeper';

/**
 * Reminders against a real scheduling process (bookings, moves, cancellations and check-ins over gRPC) and its
 * database, with the sweep run here at a cut-off the test chooses: the clock the property needs, through the
 * sweep's own code. The processes' own sweepers never reach the reminders these tests write (see slotsAhead).
 */

const ADMIN: Actor = { userId: DEMO_USER_IDS.admin, role: 'admin' };
const MINUTE = 60_000;
const OFFSETS = ['PT2H', 'PT30M'];

type Client = schedulingV1.SchedulingServiceClient;

interface Sent {
  key: string;
  status: string;
  version: number;
}

describe('appointment reminders (real scheduling process and database)', () => {
  let system: RunningSystem;
  let client: Client;
  let sequelize: Sequelize;

  const call = <Req, Res>(actor: Actor, method: keyof Client, request: Req): Promise<Res> => {
    const rpc = (client[method] as unknown as UnaryMethod<Req, Res>).bind(client);
    return callUnary(rpc, request, { metadata: outgoingMetadata({ acting: actingAs(actor, 'scheduling', client[method]) }), timeoutMs: 20_000 });
  };

  /** A bookable clinic in `timeZone`, open all day every day, whose service reminds at `reminders`. */
  async function clinic(code: string, timeZone: string, reminders: string[]) {
    const catalogue = createClient(catalogueV1.CatalogueServiceClient, system.grpcAddress('reference'));
    const { premise } = await callUnary(catalogue.getPremise.bind(catalogue), { id: '', code }, { metadata: outgoingMetadata({}), timeoutMs: 10_000 });
    catalogue.close();
    await call(ADMIN, 'putLocation', schedulingV1.PutLocationRequest.fromPartial({ premiseId: premise?.id, timeZone }));
    const { service } = await call<unknown, schedulingV1.CreateServiceResponse>(ADMIN, 'createService', schedulingV1.CreateServiceRequest.fromPartial({
      input: {
        name: `Reminders at ${code}`,
        durationMinutes: 10,
        slotStepMinutes: 10,
        policy: {
          minNoticeMinutes: 0, horizonDays: 730, holdTtlSeconds: 300, cancelCutoffMinutes: 0, rescheduleCutoffMinutes: 0,
          checkInWindowMinutes: 1_440, noShowGraceMinutes: 15, maxActivePerStudent: 100, maxHoldsPerStudent: 20, reminders,
        },
      },
    }));
    const { resource } = await call<unknown, schedulingV1.CreateResourceResponse>(ADMIN, 'createResource', schedulingV1.CreateResourceRequest.fromPartial({
      input: { locationId: premise?.id, kind: 'practitioner', name: 'Practitioner', serviceIds: [service?.id ?? ''] },
    }));
    const windows = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '00:00', end: '24:00' }));
    await call(ADMIN, 'putWeeklyRules', schedulingV1.PutWeeklyRulesRequest.fromPartial({ scheduleId: resource?.id, windows }));
    return { serviceId: service?.id ?? '', locationId: premise?.id ?? '' };
  }

  const slots = async (where: { serviceId: string; locationId: string }, from: string, to: string, limit = 100) =>
    (await call<unknown, schedulingV1.SearchSlotsResponse>(ADMIN, 'searchSlots', schedulingV1.SearchSlotsRequest.fromPartial({ ...where, from, to, limit }))).slots;

  const book = async (slotToken: string) =>
    (await call<unknown, schedulingV1.BookAppointmentResponse>({ userId: randomUUID(), role: 'student' }, 'bookAppointment', { slotToken, studentId: '', idempotencyKey: '' }))
      .appointment as schedulingV1.Appointment;

  const rows = (appointmentId: string) =>
    sequelize.query<{ version: number; before_start: string; due_ms: number }>(
      `SELECT version, before_start, (extract(epoch FROM due_at) * 1000)::float8 AS due_ms FROM appointment_reminders
        WHERE appointment_id = $1 ORDER BY due_at`,
      { bind: [appointmentId], type: QueryTypes.SELECT },
    );

  /** Every reminder event in the outbox, by the reminder it names (offset, appointment, version). */
  async function sentReminders(): Promise<Sent[]> {
    const events = await sequelize.query<{ payload: { requestId: string; after: { status: string; version: number } } }>(
      "SELECT payload FROM outbox WHERE routing_key = 'appointment.reminder' ORDER BY id",
      { type: QueryTypes.SELECT },
    );
    return events.map(({ payload }) => ({ key: payload.requestId, status: payload.after.status, version: payload.after.version }));
  }

  const sweep = (upTo: number) => sweepDueReminders({ sequelize, afterCommit: () => undefined }, upTo);

  beforeAll(async () => {
    // The processes sweep too (with the database's clock): a minute apart, so as not to crowd the machine.
    system = await startSystem({ only: ['reference', 'scheduling'], env: { scheduling: { REMINDER_SWEEP_INTERVAL_MS: '60000' } } });
    client = createClient(schedulingV1.SchedulingServiceClient, system.grpcAddress('scheduling'));
    sequelize = await openServiceDatabase({ url: system.databaseUrl('scheduling'), poolMax: 2, migrations, log: () => undefined });
  }, 120_000);

  afterAll(async () => {
    client?.close();
    await sequelize?.close();
    await system?.shutdown();
  });

  it('is due 24 hours of elapsed time before a start just after each 2027 daylight-saving change of the zones the docs name', async () => {
    const cases: [string, string, string][] = [
      // [zone, local date of the change, the booked local start that day]
      ['Europe/London', '2027-03-28', '09:00'],
      ['Europe/London', '2027-10-31', '09:00'],
      ['America/New_York', '2027-03-14', '09:00'],
      ['America/New_York', '2027-11-07', '09:00'],
      ['Australia/Lord_Howe', '2027-04-04', '09:00'],
      ['Australia/Lord_Howe', '2027-10-03', '09:00'],
      ['Europe/Skopje', '2027-03-28', '09:00'],
      ['Europe/Skopje', '2027-10-31', '09:00'],
    ];
    const codes = ['PRM-0040', 'PRM-0041', 'PRM-0042', 'PRM-0043'];
    const zones = [...new Set(cases.map(([zone]) => zone))];
    const clinics = await Promise.all(zones.map((zone, i) => clinic(codes[i], zone, ['PT24H'])));
    for (const [zone, date, time] of cases) {
      const [slot] = (await slots(clinics[zones.indexOf(zone)], date, date, 200)).filter((s) => s.start.startsWith(`${date}T${time}`));
      const appointment = await book(slot.slotToken);
      const start = Date.parse(appointment.start);
      expect(await rows(appointment.id)).toEqual([{ version: appointment.version, before_start: 'PT24H', due_ms: start - 24 * 60 * MINUTE }]);
      // On the location's clock the reminder is not at 09:00 the day before: the change moved the clock in between.
      const localDue = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(start - 24 * 60 * MINUTE);
      expect(localDue).not.toBe(time);
    }
  });

  it('sends exactly the reminders of the bookings still booked at their version once due: a property over book, reschedule, cancel and check-in', async () => {
    const where = await clinic('PRM-0044', 'UTC', OFFSETS);
    const everSent = new Set<string>();
    type Op =
      | { kind: 'book'; slot: number }
      | { kind: 'reschedule'; appointment: number; slot: number }
      | { kind: 'cancel'; appointment: number }
      | { kind: 'check_in'; appointment: number }
      | { kind: 'sweep'; minutes: number };
    const slotIndex = fc.nat({ max: 5 });
    const which = fc.nat({ max: 3 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('book' as const), slot: slotIndex }),
      fc.record({ kind: fc.constant('reschedule' as const), appointment: which, slot: slotIndex }),
      fc.record({ kind: fc.constant('cancel' as const), appointment: which }),
      fc.record({ kind: fc.constant('check_in' as const), appointment: which }),
      fc.record({ kind: fc.constant('sweep' as const), minutes: fc.nat({ max: 240 }) }),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const now = Date.now();
        // Six free slots of this run, none whose longest reminder falls due within ten minutes of now: such a
        // reminder is either past when booked (never written) or out of the processes' sweepers' reach.
        const offered = (await slots(where, new Date(now + 65 * MINUTE).toISOString(), new Date(now + 23 * 3_600_000).toISOString(), 40))
          .filter((s) => Math.abs(Date.parse(s.start) - reminderOffsetMs('PT2H') - now) > 10 * MINUTE)
          .slice(0, 6);
        const booked: schedulingV1.Appointment[] = [];
        /** What the model expects still to be sent, by reminder key, with its due time. */
        const pending = new Map<string, number>();
        const forget = (id: string) => [...pending.keys()].filter((key) => key.includes(`-${id}-v`)).forEach((key) => pending.delete(key));
        const remember = (a: schedulingV1.Appointment) => {
          forget(a.id);
          for (const offset of OFFSETS) {
            const due = Date.parse(a.start) - reminderOffsetMs(offset);
            if (due > Date.parse(a.updatedAt)) pending.set(`reminder-${offset}-${a.id}-v${a.version}`, due);
          }
        };
        let clock = now;
        const sweepTo = async (upTo: number) => {
          clock = Math.max(clock, upTo);
          const before = (await sentReminders()).length;
          await sweep(clock);
          const fresh = (await sentReminders()).slice(before);
          const expected = [...pending].filter(([, due]) => due <= clock).map(([key]) => key);
          expect(fresh.map((sent) => sent.key).sort()).toEqual(expected.sort());
          for (const sent of fresh) {
            expect(sent.status).toBe('booked');
            expect(everSent.has(sent.key)).toBe(false);
            everSent.add(sent.key);
          }
          expected.forEach((key) => pending.delete(key));
        };
        const attempt = async (change: () => Promise<schedulingV1.Appointment | undefined>) => {
          // A refused move (a slot taken, a status that forbids it) changes nothing, and the model neither.
          const result = await change().catch(() => undefined);
          if (!result) return;
          const index = booked.findIndex((a) => a.id === result.id);
          if (index >= 0) booked[index] = result;
          else booked.push(result);
          if (result.status === 'booked') remember(result);
          else forget(result.id);
          // The change's own transaction left exactly the rows the model expects (a cancelled or checked-in
          // appointment none), not merely rows the sweep would skip.
          const stored = (await rows(result.id)).map((row) => `reminder-${row.before_start}-${result.id}-v${row.version}`);
          expect(stored.sort()).toEqual([...pending.keys()].filter((key) => key.includes(`-${result.id}-v`)).sort());
        };
        for (const step of ops) {
          const target = 'appointment' in step ? booked[step.appointment % Math.max(booked.length, 1)] : undefined;
          if (step.kind === 'book' && offered[step.slot]) await attempt(() => book(offered[step.slot].slotToken));
          if (step.kind === 'reschedule' && target && offered[step.slot]) {
            await attempt(async () => (await call<unknown, schedulingV1.RescheduleAppointmentResponse>(ADMIN, 'rescheduleAppointment',
              schedulingV1.RescheduleAppointmentRequest.fromPartial({ id: target.id, slotToken: offered[step.slot].slotToken }))).appointment);
          }
          if (step.kind === 'cancel' && target) {
            await attempt(async () => (await call<unknown, schedulingV1.CancelAppointmentResponse>(ADMIN, 'cancelAppointment',
              schedulingV1.CancelAppointmentRequest.fromPartial({ id: target.id, reasonCode: 'pat' }))).appointment);
          }
          if (step.kind === 'check_in' && target) {
            await attempt(async () => (await call<unknown, schedulingV1.CheckInAppointmentResponse>(ADMIN, 'checkInAppointment',
              schedulingV1.CheckInAppointmentRequest.fromPartial({ id: target.id }))).appointment);
          }
          if (step.kind === 'sweep') await sweepTo(now + step.minutes * MINUTE);
        }
        // Past every start: each booking left booked has sent each of its reminders once, and nothing waits.
        await sweepTo(now + 2 * 24 * 3_600_000);
        for (const a of booked) expect(await rows(a.id)).toEqual([]);
        // Cancel what is left, so the next run finds its slots free.
        for (const a of booked.filter((b) => b.status === 'booked')) {
          const { appointment } = await call<unknown, schedulingV1.GetAppointmentResponse>(ADMIN, 'getAppointment', { id: a.id });
          if (appointment?.status === 'booked') await call(ADMIN, 'cancelAppointment', schedulingV1.CancelAppointmentRequest.fromPartial({ id: a.id, reasonCode: 'pat' }));
        }
      }),
      { numRuns: 30 },
    );
    // The runs did send reminders (the property is not met by sending none).
    expect(everSent.size).toBeGreaterThan(0);
  }, 240_000);
});
