import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { appointmentCalendar } from '@libs/calendar';
import { schedulingV1 } from '@libs/contracts';
import { GrpcStatus, type ServiceError } from '@libs/grpc';
import { startSmtpReceiver, startSystem, waitFor, type RunningSystem, type SmtpReceiver } from '@libs/testing';
import { accountMailApi, appointmentEvent, counterValue, mailsTo, paymentEvent, rawHeader, serviceEvent, userEvent, type ParsedReceived } from './test-mail';
import { actorOf, startPublisher } from './test-webhooks';

const PUBLIC_URL = 'http://gateway.example';
const unique = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.org`;

/** The mail's iTIP part, parsed with ical.js: its METHOD, and the VEVENT's UID, SEQUENCE and STATUS. */
function itipOf(mail: ParsedReceived) {
  const part = mail.parsed.attachments.find((attachment) => attachment.contentType === 'text/calendar');
  if (!part) throw new Error('the mail has no text/calendar part');
  return calendarOf(part.content.toString('utf8'));
}

function calendarOf(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent('vevent');
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event?.getFirstPropertyValue('uid'),
    sequence: event?.getFirstPropertyValue('sequence'),
    status: event?.getFirstPropertyValue('status'),
    attendee: event?.getFirstPropertyValue('attendee'),
  };
}

describe('mail from the notifications service (real process, a real SMTP server from npm, mailparser, ical.js)', () => {
  let system: RunningSystem;
  let receiver: SmtpReceiver;
  let identity: Awaited<ReturnType<typeof startPublisher>>;
  let scheduling: Awaited<ReturnType<typeof startPublisher>>;
  let finance: Awaited<ReturnType<typeof startPublisher>>;
  let gateway: ReturnType<typeof accountMailApi>;

  /** A user the read model knows, as the identity area announces them; verified unless told. */
  async function knownUser(role: string, emailVerified = true) {
    const user = { id: actorOf(role).userId, email: unique(role), role, emailVerified };
    await identity.publish(userEvent('user.registered', user));
    return user;
  }

  beforeAll(async () => {
    receiver = await startSmtpReceiver({ refuse: (address) => (address.startsWith('refused-') ? { code: 550, message: 'no such mailbox' } : undefined) });
    system = await startSystem({
      only: ['notifications'],
      env: {
        notifications: {
          SMTP_URL: receiver.url,
          MAIL_FROM: 'Clinic <clinic@example.org>',
          MAIL_RETRY_SCHEDULE: '0s,500ms,1s',
          MAIL_POLL_MS: '100',
          PUBLIC_API_URL: PUBLIC_URL,
        },
      },
    });
    identity = await startPublisher(system, 'identity');
    scheduling = await startPublisher(system, 'scheduling');
    finance = await startPublisher(system, 'finance');
    gateway = accountMailApi(system);
  }, 90_000);

  afterAll(async () => {
    gateway?.close();
    await Promise.all([identity?.close(), scheduling?.close(), finance?.close()]);
    await system?.shutdown();
    await receiver?.close();
  });

  it('sends a verification mail once per mail id: text and HTML with the same link to the dashboard, and no List-Unsubscribe', async () => {
    const email = unique('new');
    const mailId = randomUUID();
    expect(await gateway.queue({ mailId, template: 'verify_email', email, userId: 'u-new', linkToken: 'tok_A-b.c~1' })).toEqual({ queued: true });
    expect(await gateway.queue({ mailId, template: 'verify_email', email, userId: 'u-new', linkToken: 'tok_A-b.c~1' })).toEqual({ queued: true });
    const [mail] = await waitFor('the verification mail', async () => ((await mailsTo(receiver.mails, email)).length > 0 ? mailsTo(receiver.mails, email) : undefined));
    const link = `${PUBLIC_URL}/dashboard/#verify?token=tok_A-b.c~1`;
    expect(mail.parsed.subject).toBe('Verify your email address');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Clinic', address: 'clinic@example.org' }]);
    expect(mail.parsed.text).toContain(link);
    expect(mail.parsed.html).toContain(`href="${link}"`);
    expect(mail.parsed.headers.has('list-unsubscribe')).toBe(false);
    // The repeat changed nothing: a second look finds one message still.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await mailsTo(receiver.mails, email)).toHaveLength(1);
  });

  it('takes account mail from the gateway alone, and refuses a malformed one naming the field', async () => {
    const student = accountMailApi(system, actorOf('admin'));
    try {
      await expect(student.queue({ template: 'verify_email', email: unique('x'), linkToken: 't' })).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
    } finally {
      student.close();
    }
    const refused = (await gateway.queue({ template: 'verify_email', email: 'a@example.org\r\nBcc: victim@example.org', linkToken: 't' }).catch((error: ServiceError) => error)) as ServiceError;
    expect(refused.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(refused.details).toMatch(/email/);
    const noToken = (await gateway.queue({ template: 'password_reset', email: unique('x'), linkToken: '' }).catch((error: ServiceError) => error)) as ServiceError;
    expect(noToken.code).toBe(GrpcStatus.INVALID_ARGUMENT);
  });

  it('refuses the sixth password reset mail to one address in an hour, whatever the case of the address', async () => {
    const email = unique('flooded');
    for (let i = 0; i < 5; i += 1) {
      expect(await gateway.queue({ template: 'password_reset', email: i % 2 ? email.toUpperCase() : email, linkToken: `t${i}` })).toEqual({ queued: true });
    }
    expect(await gateway.queue({ template: 'password_reset', email, linkToken: 't5' })).toEqual({ queued: false });
    // Another template to the same address has its own count.
    expect(await gateway.queue({ template: 'verify_email', email, linkToken: 'v' })).toEqual({ queued: true });
    const six = await waitFor('the six mails', async () => ((await mailsTo(receiver.mails, email)).length >= 6 ? mailsTo(receiver.mails, email) : undefined));
    expect(six.map((mail) => mail.parsed.subject).sort()).toEqual([...Array(5).fill('Reset your password'), 'Verify your email address']);
  });

  it("mails a student's appointment only once their address is verified, with an iTIP REQUEST and then a CANCEL whose UID and SEQUENCE are the .ics's", async () => {
    const student = await knownUser('student', false);
    const serviceId = randomUUID();
    await scheduling.publish(serviceEvent(serviceId, 'Physiotherapy <assessment>'));
    const appointment = {
      id: randomUUID(),
      studentId: student.id,
      serviceId,
      locationId: 'premise-1',
      sequence: 0,
      status: 'booked',
      start: '2027-03-10T10:00:00+00:00',
      end: '2027-03-10T10:30:00+00:00',
    };
    const staff = actorOf('clinician').userId;
    await scheduling.publish(appointmentEvent('appointment.booked', appointment, [staff]));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await mailsTo(receiver.mails, student.email)).toEqual([]);

    await identity.publish(userEvent('user.email_verified', { ...student, emailVerified: true }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const booked = appointmentEvent('appointment.booked', { ...appointment, sequence: 1 }, [staff]);
    await scheduling.publish(booked);
    await scheduling.republish(booked);
    const [invite] = await waitFor('the invitation', async () => ((await mailsTo(receiver.mails, student.email)).length > 0 ? mailsTo(receiver.mails, student.email) : undefined));
    expect(invite.parsed.subject).toMatch(/^Appointment booked: Physiotherapy <assessment>, /);
    expect(invite.parsed.html).toContain('Physiotherapy &lt;assessment&gt;');
    expect(rawHeader(invite, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const ics = calendarOf(appointmentCalendar(schedulingV1.Appointment.fromPartial({ ...appointment, sequence: 1, timeZone: 'Europe/London', createdAt: appointment.start, updatedAt: appointment.start }), { service: 'x', location: 'y' }));
    expect(itipOf(invite)).toMatchObject({ method: 'REQUEST', uid: ics.uid, sequence: 1, status: 'CONFIRMED', attendee: `mailto:${student.email}` });

    await scheduling.publish(appointmentEvent('appointment.cancelled', { ...appointment, sequence: 2, status: 'cancelled', reason: 'Clinic closed <flood>' }, [staff]));
    const cancelled = await waitFor('the cancellation', async () => (await mailsTo(receiver.mails, student.email)).find((mail) => mail.parsed.subject?.startsWith('Appointment cancelled')));
    expect(cancelled.parsed.text).toContain('Reason: Clinic closed <flood>');
    expect(cancelled.parsed.html).toContain('Clinic closed &lt;flood&gt;');
    expect(itipOf(cancelled)).toMatchObject({ method: 'CANCEL', uid: ics.uid, sequence: 2, status: 'CANCELLED' });
    // The redelivered booking sent nothing more; the staff member (no address known) got nothing.
    expect(await mailsTo(receiver.mails, student.email)).toHaveLength(2);
  });

  it('sends a reminder with the same invitation (iTIP REQUEST, UID, SEQUENCE), once per event, and none once the student turns reminders off', async () => {
    const student = await knownUser('student');
    const serviceId = randomUUID();
    await scheduling.publish(serviceEvent(serviceId, 'Dental check-up'));
    const appointment = { id: randomUUID(), studentId: student.id, serviceId, locationId: 'p', sequence: 1, status: 'booked', start: '2027-03-29T09:00:00+01:00', end: '2027-03-29T09:30:00+01:00' };
    await new Promise((resolve) => setTimeout(resolve, 500));
    const reminder = appointmentEvent('appointment.reminder', appointment);
    await scheduling.publish(reminder);
    await scheduling.republish(reminder);
    const [mail] = await waitFor('the reminder', async () => ((await mailsTo(receiver.mails, student.email)).length > 0 ? mailsTo(receiver.mails, student.email) : undefined));
    expect(mail.parsed.subject).toBe('Reminder: Dental check-up, Monday, 29 March 2027 at 09:00 BST');
    const ics = calendarOf(appointmentCalendar(schedulingV1.Appointment.fromPartial({ ...appointment, timeZone: 'Europe/London', createdAt: appointment.start, updatedAt: appointment.start }), { service: 'x', location: 'y' }));
    expect(itipOf(mail)).toMatchObject({ method: 'REQUEST', uid: ics.uid, sequence: 1, status: 'CONFIRMED' });

    const own = accountMailApi(system, { userId: student.id, role: 'student' });
    try {
      await own.updatePreferences({ reminders: false });
      await scheduling.publish(appointmentEvent('appointment.reminder', appointment));
      await scheduling.publish(appointmentEvent('appointment.rescheduled', { ...appointment, sequence: 2 }));
      await waitFor('the move', async () => (await mailsTo(receiver.mails, student.email)).find((m) => m.parsed.subject?.startsWith('Appointment moved')));
      // The move (appointments) came; the second reminder, and the redelivered first one, did not.
      expect((await mailsTo(receiver.mails, student.email)).map((m) => m.parsed.subject?.split(':')[0])).toEqual(['Reminder', 'Appointment moved']);
    } finally {
      own.close();
    }
  });

  it("tells a student their proof of payment was processed, with the bursar's note escaped in the HTML, and nobody else", async () => {
    const student = await knownUser('student');
    const bursar = await knownUser('bursar');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await finance.publish(paymentEvent('payment.processed', student.id, { outcome: 'rejected', note: '<b>Blurred</b> scan & wrong amount' }));
    await finance.publish({ ...paymentEvent('payment.processed', bursar.id, { outcome: 'accepted', note: null }) });
    const [mail] = await waitFor('the payment mail', async () => ((await mailsTo(receiver.mails, student.email)).length > 0 ? mailsTo(receiver.mails, student.email) : undefined));
    expect(mail.parsed.subject).toBe('Your proof of payment was rejected');
    expect(mail.parsed.text).toContain("Bursar's note: <b>Blurred</b> scan & wrong amount");
    expect(mail.parsed.html).toContain('&lt;b&gt;Blurred&lt;/b&gt; scan &amp; wrong amount');
    expect(mail.parsed.text).toContain('Amount: 123.45');
    const unsubscribe = rawHeader(mail, 'list-unsubscribe');
    expect(unsubscribe).toMatch(new RegExp(`^<${PUBLIC_URL}/api/v1/notifications/unsubscribe/[A-Za-z0-9_-]+\\.finance\\.[A-Za-z0-9_-]{43}>$`));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await mailsTo(receiver.mails, bursar.email)).toEqual([]);
  });

  it('keeps a client\'s CR/LF out of every header: a service named to inject Bcc and another subject', async () => {
    const student = await knownUser('student');
    const serviceId = randomUUID();
    await scheduling.publish(serviceEvent(serviceId, 'Dental\r\nBcc: thief@example.org\r\nSubject: free money\u2028X-Evil: 1'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await scheduling.publish(
      appointmentEvent('appointment.booked', { id: randomUUID(), studentId: student.id, serviceId, locationId: 'p', sequence: 0, status: 'booked', start: '2027-01-05T09:00:00+00:00', end: '2027-01-05T09:30:00+00:00' }),
    );
    const [mail] = await waitFor('the mail', async () => ((await mailsTo(receiver.mails, student.email)).length > 0 ? mailsTo(receiver.mails, student.email) : undefined));
    expect(mail.to).toEqual([student.email]);
    expect(mail.parsed.bcc).toBeUndefined();
    expect(mail.parsed.headers.has('x-evil')).toBe(false);
    expect(mail.parsed.subject).toMatch(/^Appointment booked: Dental {2}Bcc: thief@example.org {2}Subject: free money X-Evil: 1, /);
    expect(receiver.mails.some((received) => received.to.includes('thief@example.org'))).toBe(false);
  });

  it('stops finance mail once the student turns it off, by their preferences or by the one-click link of a mail', async () => {
    const student = await knownUser('student');
    const own = accountMailApi(system, { userId: student.id, role: 'student' });
    try {
      expect(await own.getPreferences()).toEqual({ preferences: { finance: true, appointments: true, reminders: true } });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await finance.publish(paymentEvent('payment.processed', student.id, { outcome: 'accepted', note: null }));
      const [first] = await waitFor('the first mail', async () => ((await mailsTo(receiver.mails, student.email)).length > 0 ? mailsTo(receiver.mails, student.email) : undefined));
      const link = /^<(.*)>$/.exec(rawHeader(first, 'list-unsubscribe') ?? '')?.[1] ?? '';
      const token = decodeURIComponent(link.slice(`${PUBLIC_URL}/api/v1/notifications/unsubscribe/`.length));
      // The link as the gateway passes it on: the category it names is off, and a second click changes nothing.
      expect(await gateway.unsubscribe(token)).toEqual({ category: 'finance' });
      expect(await gateway.unsubscribe(token)).toEqual({ category: 'finance' });
      expect(await own.getPreferences()).toEqual({ preferences: { finance: false, appointments: true, reminders: true } });
      await expect(gateway.unsubscribe(`${token.slice(0, -2)}AA`)).rejects.toMatchObject({ code: GrpcStatus.NOT_FOUND });
      await expect(own.unsubscribe(token)).rejects.toMatchObject({ code: GrpcStatus.PERMISSION_DENIED });
      await finance.publish(paymentEvent('payment.resolved', student.id, { outcome: 'accepted', note: null }));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await mailsTo(receiver.mails, student.email)).toHaveLength(1);

      expect(await own.updatePreferences({ finance: true, reminders: false })).toEqual({ preferences: { finance: true, appointments: true, reminders: false } });
      await finance.publish(paymentEvent('payment.resolved', student.id, { outcome: 'accepted', note: null }));
      await waitFor('the mail after turning finance on again', async () => ((await mailsTo(receiver.mails, student.email)).length === 2 ? true : undefined));
    } finally {
      own.close();
    }
  });

  it('gives up at once on a 550, logs it and counts it', async () => {
    const before = await counterValue(system.metricsUrl('notifications'), 'notifications_mail_attempts_total', 'outcome="rejected"');
    const email = unique('refused');
    expect(await gateway.queue({ template: 'verify_email', email, linkToken: 'x' })).toEqual({ queued: true });
    await waitFor('the refusal in the log', async () => (/mail refused for good.*550|550.*mail refused for good/.test(system.logs('notifications')) ? true : undefined));
    expect(await counterValue(system.metricsUrl('notifications'), 'notifications_mail_attempts_total', 'outcome="rejected"')).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await counterValue(system.metricsUrl('notifications'), 'notifications_mail_attempts_total', 'outcome="rejected"')).toBe(before + 1);
    expect(await mailsTo(receiver.mails, email)).toEqual([]);
  });
});
