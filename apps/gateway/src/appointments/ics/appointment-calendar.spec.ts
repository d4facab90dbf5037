import ICAL from 'ical.js';
import { schedulingV1 } from '@libs/contracts';
import { appointmentCalendar } from './appointment-calendar';
import { escapeText, foldLine } from './ics-text';

const appointment = (overrides: Partial<schedulingV1.Appointment> = {}): schedulingV1.Appointment =>
  schedulingV1.Appointment.fromPartial({
    id: '0b7f2a52-6c1e-4d0e-9a59-3f3a1c2b9d10',
    status: 'booked',
    start: '2027-03-28T00:30:00+00:00',
    end: '2027-03-28T02:30:00+01:00',
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
    // A daylight-saving night in London: 00:30 GMT to 02:30 BST is one hour.
    const start = event.getFirstPropertyValue('dtstart') as ICAL.Time;
    const end = event.getFirstPropertyValue('dtend') as ICAL.Time;
    expect(start.toJSDate().toISOString()).toBe('2027-03-28T00:30:00.000Z');
    expect(end.toJSDate().toISOString()).toBe('2027-03-28T01:30:00.000Z');
    expect(start.zone?.tzid).toBe('UTC');
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
