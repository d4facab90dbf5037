import ICAL from 'ical.js';
import { schedulingV1 } from '@libs/contracts';
import { appointmentCalendar, feedCalendar } from './appointment-calendar';
import { escapeText, foldLine } from './ics-text';

const appointment = (overrides: Partial<schedulingV1.Appointment> = {}): schedulingV1.Appointment =>
  schedulingV1.Appointment.fromPartial({
    id: '0b7f2a52-6c1e-4d0e-9a59-3f3a1c2b9d10',
    status: 'booked',
    start: '2027-03-28T00:30:00+00:00',
    end: '2027-03-28T02:30:00+01:00',
    timeZone: 'Europe/London',
    sequence: 2,
    createdAt: '2027-03-01T09:00:00+00:00',
    updatedAt: '2027-03-02T10:15:30+00:00',
    ...overrides,
  });

/** The one VEVENT of a calendar, as a real iCalendar parser reads it. */
function parsedEvent(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  return { calendar, event: events[0] };
}

describe('escaping and folding (RFC 5545 §3.3.11, §3.1)', () => {
  it('escapes backslashes, semicolons, commas and newlines, and drops other control characters', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf\rg\u0000h\ti')).toBe('a\\\\b\\;c\\,d\\ne\\nf\\ng' + 'h\ti');
  });

  it('folds at 75 octets without splitting a character, each continuation starting with a space', () => {
    const line = `SUMMARY:${'é'.repeat(60)}${'😀'.repeat(20)}`;
    const folded = foldLine(line).split('\r\n');
    expect(folded.length).toBeGreaterThan(2);
    for (const part of folded) expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
    folded.slice(1).forEach((part) => expect(part.startsWith(' ')).toBe(true));
    expect(folded.map((part, i) => (i === 0 ? part : part.slice(1))).join('')).toBe(line);
    expect(foldLine('SHORT:x')).toBe('SHORT:x');
  });
});

/** DTSTART and DTEND as ical.js reads them: the zone they resolved to (from the file's VTIMEZONE) and the instants. */
function times(event: ICAL.Component) {
  const start = event.getFirstPropertyValue('dtstart') as ICAL.Time;
  const end = event.getFirstPropertyValue('dtend') as ICAL.Time;
  expect(end.zone?.tzid).toBe(start.zone?.tzid);
  return { zone: start.zone?.tzid, start: start.toJSDate().toISOString(), end: end.toJSDate().toISOString() };
}

describe('an appointment as iCalendar', () => {
  const hostile = 'Vaccination; flu, "quick"\\slow\nsecond line — ünïcödé 💉 '.repeat(4);

  it('reads back, through ical.js, as the appointment: UID, SEQUENCE, instants, status, texts', () => {
    const text = appointmentCalendar(appointment(), { service: hostile, location: 'Borough High Street, London; rear door' });
    expect(text.endsWith('\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    const { calendar, event } = parsedEvent(text);
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(event.getFirstPropertyValue('uid')).toBe('0b7f2a52-6c1e-4d0e-9a59-3f3a1c2b9d10@appointments.clinical-reference');
    expect(event.getFirstPropertyValue('sequence')).toBe(2);
    expect(event.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(event.getFirstPropertyValue('summary')).toBe(hostile);
    expect(event.getFirstPropertyValue('location')).toBe('Borough High Street, London; rear door');
    // A daylight-saving night in London: 00:30 GMT to 02:30 BST is one hour, on the location's clock.
    expect(text).toContain('DTSTART;TZID=Europe/London:20270328T003000');
    expect(text).toContain('DTEND;TZID=Europe/London:20270328T023000');
    expect(times(event)).toEqual({ zone: 'Europe/London', start: '2027-03-28T00:30:00.000Z', end: '2027-03-28T01:30:00.000Z' });
    expect((event.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate().toISOString()).toBe('2027-03-02T10:15:30.000Z');
  });

  it.each([
    ['held', 'TENTATIVE'],
    ['booked', 'CONFIRMED'],
    ['checked_in', 'CONFIRMED'],
    ['fulfilled', 'CONFIRMED'],
    ['cancelled', 'CANCELLED'],
    ['entered_in_error', 'CANCELLED'],
  ])('a %s appointment is %s', (status, expected) => {
    const { event } = parsedEvent(appointmentCalendar(appointment({ status }), { service: 'S', location: 'L' }));
    expect(event.getFirstPropertyValue('status')).toBe(expected);
  });

  it('keeps its UID across versions, and the same version gives the same file', () => {
    const names = { service: 'S', location: 'L' };
    const first = appointmentCalendar(appointment(), names);
    expect(appointmentCalendar(appointment(), names)).toBe(first);
    const moved = parsedEvent(appointmentCalendar(appointment({ sequence: 3, start: '2027-04-01T09:00:00+01:00', end: '2027-04-01T09:30:00+01:00' }), names));
    expect(moved.event.getFirstPropertyValue('uid')).toBe(parsedEvent(first).event.getFirstPropertyValue('uid'));
    expect(moved.event.getFirstPropertyValue('sequence')).toBe(3);
  });
});

describe('times on the location’s clock (TZID and VTIMEZONE)', () => {
  const at = (start: string, end: string, timeZone: string) => {
    const text = appointmentCalendar(appointment({ start, end, timeZone }), { service: 'S', location: 'L' });
    return { text, ...times(parsedEvent(text).event) };
  };

  it.each([
    ['summer in London', '2027-07-01T09:00:00+01:00', '2027-07-01T09:20:00+01:00', 'Europe/London', '2027-07-01T08:00:00.000Z', '2027-07-01T08:20:00.000Z'],
    ['winter in New York', '2027-01-15T09:00:00-05:00', '2027-01-15T09:30:00-05:00', 'America/New_York', '2027-01-15T14:00:00.000Z', '2027-01-15T14:30:00.000Z'],
    ['Nairobi, which has no daylight saving', '2027-03-01T08:00:00+03:00', '2027-03-01T08:30:00+03:00', 'Africa/Nairobi', '2027-03-01T05:00:00.000Z', '2027-03-01T05:30:00.000Z'],
    ['Lord Howe, whose summer time is half an hour', '2027-01-10T10:00:00+11:00', '2027-01-10T10:30:00+11:00', 'Australia/Lord_Howe', '2027-01-09T23:00:00.000Z', '2027-01-09T23:30:00.000Z'],
    ['Kolkata, half an hour off the hour', '2027-05-05T09:00:00+05:30', '2027-05-05T09:15:00+05:30', 'Asia/Kolkata', '2027-05-05T03:30:00.000Z', '2027-05-05T03:45:00.000Z'],
    ['the first pass of a fall-back hour', '2027-10-31T01:30:00+01:00', '2027-10-31T01:50:00+01:00', 'Europe/London', '2027-10-31T00:30:00.000Z', '2027-10-31T00:50:00.000Z'],
    ['across a fall-back in New York', '2027-11-07T00:30:00-04:00', '2027-11-07T03:30:00-05:00', 'America/New_York', '2027-11-07T04:30:00.000Z', '2027-11-07T08:30:00.000Z'],
    // Starting at the very instant the clock changes: the VTIMEZONE must hold that change, not the one before it.
    ['starting exactly at a spring-forward in New York', '2027-03-14T03:00:00-04:00', '2027-03-14T03:30:00-04:00', 'America/New_York', '2027-03-14T07:00:00.000Z', '2027-03-14T07:30:00.000Z'],
    ['starting exactly at a midnight spring-forward in Santiago', '2027-09-05T01:00:00-03:00', '2027-09-05T01:45:00-03:00', 'America/Santiago', '2027-09-05T04:00:00.000Z', '2027-09-05T04:45:00.000Z'],
    ['starting exactly at a midnight spring-forward in Beirut', '2027-03-28T01:00:00+03:00', '2027-03-28T01:30:00+03:00', 'Asia/Beirut', '2027-03-27T22:00:00.000Z', '2027-03-27T22:30:00.000Z'],
  ])('reads back right in %s', (_case, start, end, zone, utcStart, utcEnd) => {
    const read = at(start, end, zone);
    expect(read.text).toContain(`TZID:${zone}`);
    expect({ zone: read.zone, start: read.start, end: read.end }).toEqual({ zone, start: utcStart, end: utcEnd });
  });

  it('writes UTC when a time is the second pass of a fall-back hour, which iCalendar would read as the first', () => {
    // 01:30 on 2027-10-31 in London happens twice; this is the second (GMT).
    const read = at('2027-10-31T01:30:00+00:00', '2027-10-31T02:00:00+00:00', 'Europe/London');
    expect(read.text).not.toContain('VTIMEZONE');
    expect(read.text).toContain('DTSTART:20271031T013000Z');
    expect({ zone: read.zone, start: read.start, end: read.end }).toEqual({ zone: 'UTC', start: '2027-10-31T01:30:00.000Z', end: '2027-10-31T02:00:00.000Z' });
  });
});

describe('a feed of many appointments', () => {
  const names = { service: 'Flu, jab', location: 'Borough; rear' };
  /** The VEVENT block of a file, as written (folded lines and all). */
  const vevents = (text: string) => text.match(/BEGIN:VEVENT\r\n[\s\S]*?END:VEVENT\r\n/g) ?? [];
  const appointments = [
    appointment({ id: '00000000-0000-4000-8000-000000000001' }),
    appointment({ id: '00000000-0000-4000-8000-000000000002', start: '2027-01-15T09:00:00-05:00', end: '2027-01-15T09:30:00-05:00', timeZone: 'America/New_York', sequence: 0 }),
    appointment({ id: '00000000-0000-4000-8000-000000000003', start: '2027-10-31T01:30:00+00:00', end: '2027-10-31T02:00:00+00:00', status: 'cancelled' }),
    appointment({ id: '00000000-0000-4000-8000-000000000004', start: '2027-11-20T10:00:00+00:00', end: '2027-11-20T10:30:00+00:00' }),
  ];
  const feed = feedCalendar(appointments.map((a) => ({ appointment: a, names })), { name: 'My appointments', refreshInterval: 'PT1H' });

  it('holds each appointment’s own VEVENT, byte for byte, in the order given', () => {
    expect(vevents(feed)).toEqual(appointments.map((a) => vevents(appointmentCalendar(a, names))[0]));
  });

  it('defines each zone once, covering every event in it, and reads back through ical.js as each single file does', () => {
    const calendar = new ICAL.Component(ICAL.parse(feed));
    expect(calendar.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid'))).toEqual(['Europe/London', 'America/New_York']);
    const events = calendar.getAllSubcomponents('vevent');
    expect(events.map((event) => times(event))).toEqual(appointments.map((a) => times(parsedEvent(appointmentCalendar(a, names)).event)));
    expect(events.map((event) => event.getFirstPropertyValue('status'))).toEqual(['CONFIRMED', 'CONFIRMED', 'CANCELLED', 'CONFIRMED']);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('My appointments');
  });

  it('gives each event one display alarm per reminder of its policy, before the start, and a cancelled one none', () => {
    const reminded = (status: string) =>
      parsedEvent(appointmentCalendar(appointment({ status, policy: { reminders: ['PT24H', 'PT30M'] } as schedulingV1.Policy }), names)).event;
    const alarms = reminded('booked').getAllSubcomponents('valarm');
    expect(alarms.map((alarm) => alarm.getFirstPropertyValue('action'))).toEqual(['DISPLAY', 'DISPLAY']);
    expect(alarms.map((alarm) => (alarm.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds())).toEqual([-86_400, -1_800]);
    expect(alarms.map((alarm) => alarm.getFirstProperty('trigger')?.getParameter('related') ?? 'START')).toEqual(['START', 'START']);
    expect(reminded('cancelled').getAllSubcomponents('valarm')).toHaveLength(0);
  });

  it('is a valid empty calendar when nothing is in it', () => {
    const calendar = new ICAL.Component(ICAL.parse(feedCalendar([], { name: 'None', refreshInterval: 'PT1H' })));
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(0);
  });
});
