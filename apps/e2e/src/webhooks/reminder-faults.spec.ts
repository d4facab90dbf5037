import { randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { DEMO_USER_IDS, schedulingV1 } from '@libs/contracts';
import { AMQP_URL, startSmtpReceiver, startSystem, startTcpProxy, waitFor, withPgClient, type RunningSystem, type SmtpReceiver, type TcpProxy } from '@libs/testing';
import { ADMIN, SchedulingCaller, setUpClinic, student, TEST_POLICY } from '../scheduling/scheduling-client';
import { ReceivingEndpoint } from './receiving-endpoint';
import { webhookApi } from './webhook-helpers';

jest.setTimeout(180_000);

const STUDENT = student(DEMO_USER_IDS.student);
const STUDENT_EMAIL = 'demo-student@example.invalid';
const RESOURCES = 10;
/** Appointments booked at each of the three start times; the other resources' slots are where two of them move. */
const PER_START = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 25's exactly-once test: reminders falling due while two scheduling instances sweep and two notifications
 * instances deliver, with a scheduling instance killed (SIGKILL) at the due time, the broker cut around it, and a
 * notifications instance killed mid-delivery. Each reminder is counted where a user sees it: at a webhook receiver
 * (one `webhook-id` per reminder; repeats of one id are the at-least-once retries a receiver drops) and in the
 * SMTP catcher (one message per reminder). Reminders of moved appointments come for the new version only, and
 * cancelled ones send none.
 */
describe('appointment reminders exactly once under faults (real processes)', () => {
  let system: RunningSystem;
  let broker: TcpProxy;
  let smtp: SmtpReceiver;
  let caller: SchedulingCaller;
  const endpoints: ReceivingEndpoint[] = [];
  const endpoint = async (...args: Parameters<typeof ReceivingEndpoint.create>) => {
    const made = await ReceivingEndpoint.create(...args);
    endpoints.push(made);
    return made;
  };

  beforeAll(async () => {
    broker = await startTcpProxy(AMQP_URL);
    smtp = await startSmtpReceiver();
    const viaProxy = { AMQP_URL: broker.proxiedUrl(AMQP_URL) };
    system = await startSystem({
      instances: { scheduling: 2, notifications: 2 },
      env: {
        scheduling: { ...viaProxy, REMINDER_SWEEP_INTERVAL_MS: '100' },
        notifications: { ...viaProxy, SMTP_URL: smtp.url, MAIL_POLL_MS: '100', MAIL_RETRY_SCHEDULE: '0s,500ms,1s,2s', WEBHOOK_RETRY_SCHEDULE: '0s,500ms,1s,2s,4s' },
      },
    });
    caller = new SchedulingCaller(system.grpcAddress('scheduling'));
  }, 120_000);

  afterAll(async () => {
    for (const made of endpoints) await made.close();
    caller?.close();
    await system?.shutdown();
    await broker?.close();
    await smtp?.close();
  });

  it('sends each reminder once to the webhook endpoints that may read it and once by mail, through kills and a broker cut', async () => {
    const own = await endpoint('student', webhookApi(system, system.keys.student), ['appointment.reminder']);
    const everything = await endpoint('admin', webhookApi(system, system.keys.admin), ['*']);
    // A reader reads no appointment: subscribed to everything, it gets no reminder.
    const reader = await endpoint('reader', webhookApi(system, system.keys.reader), ['*']);

    // Three start times, 5 minutes apart from the first boundary two minutes out, a slot per resource at each; the
    // policy's three offsets are chosen so that each appointment has exactly one reminder falling due at one instant
    // 30 to 90 seconds from now (a service books on its slot grid, not closer); its other reminders are past when
    // booked (never written) or minutes later (not yet due when the test ends).
    const clinic = await setUpClinic(system, caller, { code: 'PRM-0045', timeZone: 'UTC', hours: [[0, '00:00', '24:00']], durationMinutes: 5, resources: RESOURCES });
    const from = Date.now() + 2 * 60_000;
    const { slots } = await caller.call(ADMIN, 'searchSlots', {
      serviceId: clinic.serviceId, locationId: clinic.locationId, from: new Date(from).toISOString(), to: new Date(from + 20 * 60_000).toISOString(), limit: 200,
    });
    const first = Date.parse(slots[0].start);
    const offsetMinutes = Math.floor((first - Date.now() - 30_000) / 60_000);
    const dueAt = first - offsetMinutes * 60_000;
    await caller.call(ADMIN, 'updateService', {
      id: clinic.serviceId,
      policy: { ...TEST_POLICY, reminders: [0, 5, 10].map((more) => `PT${offsetMinutes + more}M`) },
    });
    const at = [0, 1, 2].map((k) => slots.filter((slot) => Date.parse(slot.start) === first + k * 5 * 60_000));
    for (const column of at) expect(column).toHaveLength(RESOURCES);

    // Per start time: the demo student (whose mail the catcher receives) and other students fill all but the spares.
    const bookers = (k: number) => [STUDENT, ...Array.from({ length: PER_START - 1 }, () => student(randomUUID()))].map((who, i) => ({ who, slot: at[k][i] }));
    const booked = (await Promise.all([0, 1, 2].flatMap((k) => bookers(k).map(async ({ who, slot }) => (await caller.call(who, 'bookAppointment', { slotToken: slot.slotToken })).appointment)))).flat();
    // Two of each start move to a spare resource at the same time (the demo student's among them); one of each is cancelled.
    const toMove = [0, 1, 2].flatMap((k) => booked.filter((a) => Date.parse(a.start) === first + k * 5 * 60_000).slice(0, 2).map((a, i) => ({ a, slot: at[k][PER_START + i] })));
    const moved = await Promise.all(toMove.map(async ({ a, slot }) => (await caller.call(ADMIN, 'rescheduleAppointment', { id: a.id, slotToken: slot.slotToken })).appointment));
    const toCancel = [0, 1, 2].map((k) => booked.filter((a) => Date.parse(a.start) === first + k * 5 * 60_000)[2]);
    for (const a of toCancel) await caller.call(ADMIN, 'cancelAppointment', { id: a.id, reasonCode: 'pat' });
    const untouched = booked.filter((a) => !toMove.some((m) => m.a.id === a.id) && !toCancel.includes(a));
    const expected = new Map<string, number>([...moved, ...untouched].map((a: schedulingV1.Appointment) => [a.id, a.version]));
    const demos = [...moved, ...untouched].filter((a) => a.studentId === DEMO_USER_IDS.student).map((a) => a.id);
    expect(demos).toHaveLength(3);
    expect(Date.now()).toBeLessThan(dueAt - 5_000);

    // The broker goes away just before the due time, a scheduling instance is killed as it falls due, and the
    // broker comes back five seconds later: the events wait in the outbox meanwhile.
    await sleep(dueAt - 2_000 - Date.now());
    broker.cut();
    await sleep(dueAt + 300 - Date.now());
    expect(await system.stop('scheduling', 'SIGKILL', 1)).toBeNull();
    await sleep(5_000);
    broker.restore();
    await system.start('scheduling', { instance: 1 });
    // A notifications instance is killed once deliveries are under way, and comes back.
    await waitFor('the first reminder deliveries', async () => (own.verified().length > 0 ? true : undefined), 60_000);
    expect(await system.stop('notifications', 'SIGKILL', 1)).toBeNull();
    await system.start('notifications', { instance: 1 });

    const ids = [...expected.keys()];
    // The student's endpoint gets the reminders of their own appointments; the admin's gets every one.
    const wanted = [{ receiving: own, of: demos }, { receiving: everything, of: ids }];
    for (const { receiving, of } of wanted) {
      await waitFor(`${receiving.name}'s endpoint to get every reminder`, async () => {
        const about = receiving.verified().filter((d) => d.type === 'appointment.reminder');
        return of.every((id) => about.some((d) => d.data.object.id === id)) ? true : undefined;
      }, 60_000);
    }
    const mails = await waitFor('a reminder mail per reminder', async () => {
      const parsed = await Promise.all(smtp.mails.filter((m) => m.to.includes(STUDENT_EMAIL)).map((m) => simpleParser(m.raw)));
      const reminders = parsed.filter((m) => m.subject?.startsWith('Reminder:'));
      return new Set(reminders.map((m) => m.messageId)).size >= demos.length ? reminders : undefined;
    }, 60_000);
    // Let a stray second event, or a second mail, show up if there were one.
    await sleep(3_000);

    for (const { receiving, of } of wanted) {
      const about = receiving.verified().filter((d) => d.type === 'appointment.reminder');
      // One event (webhook-id) per reminder, for the booking's version after any move.
      const events = new Map(about.map((d) => [d.id, d.data.object]));
      expect([...events.values()].map((object) => [object.id, object.version]).sort()).toEqual(of.map((id) => [id, expected.get(id)]).sort());
      expect(receiving.forged()).toEqual([]);
    }
    expect(reader.verified().filter((d) => d.type === 'appointment.reminder')).toEqual([]);

    const distinct = new Map(mails.map((m) => [m.messageId, m]));
    const uids = [...distinct.values()].map((m) => {
      const ics = m.attachments.find((part) => part.contentType === 'text/calendar')?.content.toString('utf8') ?? '';
      return /^UID:([^@\r\n]+)@/m.exec(ics)?.[1];
    });
    expect(uids.sort()).toEqual([...demos].sort());

    // One event per reminder in scheduling's outbox, all published; no row left to send.
    await withPgClient(system.databaseUrl('scheduling'), async (client) => {
      const events = await client.query<{ id: string; published: boolean }>(
        "SELECT payload->'after'->>'id' AS id, published_at IS NOT NULL AS published FROM outbox WHERE routing_key = 'appointment.reminder'",
      );
      expect(events.rows.map((row) => row.id).sort()).toEqual(ids.sort());
      expect(events.rows.every((row) => row.published)).toBe(true);
      expect((await client.query('SELECT count(*)::int AS left FROM appointment_reminders WHERE due_at <= now()')).rows[0].left).toBe(0);
    });
  });
});
