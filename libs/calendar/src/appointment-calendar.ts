import { appointmentsApi, CALENDAR_STATUS, type schedulingV1 } from '@libs/contracts';
import { contentLines, escapeText, utcDateTime } from './ics-text';
import { localTimeOf, vtimezone } from './vtimezone';

/** The UID's domain part: a UID names the appointment for good, whichever gateway served it. */
const UID_DOMAIN = 'appointments.clinical-reference';

/**
 * An iTIP message (RFC 5546) instead of a published file: REQUEST invites (or updates) the attendee, CANCEL takes
 * the event back. Both need the organizer and the attendee by their addresses.
 */
export interface ItipEnvelope {
  method: 'REQUEST' | 'CANCEL';
  organizer: { email: string; name?: string };
  attendee: { email: string };
}

export interface CalendarNames {
  /** The service's name (SUMMARY). */
  service: string;
  /** The location's name (LOCATION). */
  location: string;
}

/** An appointment and the names its VEVENT shows. */
export interface CalendarEvent {
  appointment: schedulingV1.Appointment;
  names: CalendarNames;
}

/** What a subscribed calendar shows and how often it asks again (RFC 7986 §5.1, §5.7, and the older X- names). */
export interface FeedHeader {
  name: string;
  refreshInterval: string;
}

const CALENDAR_HEAD = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Clinical reference and student finance//Appointments//EN', 'CALSCALE:GREGORIAN'];

/**
 * The appointment as an RFC 5545 VCALENDAR with one VEVENT (METHOD:PUBLISH). Its UID is the appointment's id,
 * so a calendar that imports it again updates the same event, and SEQUENCE is the appointment's (it grows with
 * each reschedule and each change of STATUS), so the newer version wins. DTSTART and DTEND are the location's
 * wall-clock times with its TZID, the zone defined in a VTIMEZONE; when a time is one a clock shows twice
 * (the second pass of a fall-back hour), which iCalendar would read as its first, both are written in UTC
 * instead. DTSTAMP is when this version of the appointment was made (`updatedAt`): the same version with the
 * same names gives the same file (a renamed service or location changes it, so the HTTP answer is tagged by
 * its body, not by the version).
 */
export function appointmentCalendar(appointment: schedulingV1.Appointment, names: CalendarNames, itip?: ItipEnvelope): string {
  const event = eventOf(appointment);
  return contentLines([
    ...CALENDAR_HEAD,
    `METHOD:${itip?.method ?? 'PUBLISH'}`,
    ...vtimezones([event]),
    ...veventLines(event, names, itip ? itipLines(itip) : []),
    'END:VCALENDAR',
  ]);
}

/**
 * Many appointments as one published VCALENDAR (a subscribed feed), in the order given: each VEVENT exactly as
 * the appointment's own file has it, and one VTIMEZONE per zone, covering every event written in that zone.
 */
export function feedCalendar(events: readonly CalendarEvent[], header: FeedHeader): string {
  const placed = events.map((event) => ({ ...eventOf(event.appointment), names: event.names }));
  return contentLines([
    ...CALENDAR_HEAD,
    'METHOD:PUBLISH',
    `NAME:${escapeText(header.name)}`,
    `X-WR-CALNAME:${escapeText(header.name)}`,
    `REFRESH-INTERVAL;VALUE=DURATION:${header.refreshInterval}`,
    `X-PUBLISHED-TTL:${header.refreshInterval}`,
    ...vtimezones(placed),
    ...placed.flatMap((event) => veventLines(event, event.names, [])),
    'END:VCALENDAR',
  ]);
}

/** An appointment with its local times, when both name it back in its zone (else it is written in UTC). */
interface PlacedEvent {
  appointment: schedulingV1.Appointment;
  local?: { zone: string; start: string; end: string };
}

function eventOf(appointment: schedulingV1.Appointment): PlacedEvent {
  const zone = appointment.timeZone;
  const start = zone ? localTimeOf(appointment.start, zone) : undefined;
  const end = zone ? localTimeOf(appointment.end, zone) : undefined;
  return { appointment, ...(start !== undefined && end !== undefined ? { local: { zone, start, end } } : {}) };
}

const earlier = (a: string, b: string) => Date.parse(a) < Date.parse(b);

/** One VTIMEZONE per zone the events are written in, from the earliest start to the latest end in it. */
function vtimezones(events: readonly PlacedEvent[]): string[] {
  const spans = new Map<string, { start: string; end: string }>();
  for (const { appointment, local } of events) {
    if (!local) continue;
    const span = spans.get(local.zone);
    if (!span) spans.set(local.zone, { start: appointment.start, end: appointment.end });
    else {
      if (earlier(appointment.start, span.start)) span.start = appointment.start;
      if (earlier(span.end, appointment.end)) span.end = appointment.end;
    }
  }
  return [...spans].flatMap(([zone, span]) => vtimezone(zone, span.start, span.end));
}

/** The one VEVENT of an appointment, wherever it is written: its own file, a feed, an iTIP mail (`extra`: its envelope). */
function veventLines({ appointment, local }: PlacedEvent, names: CalendarNames, extra: string[]): string[] {
  const updated = utcDateTime(appointment.updatedAt);
  return [
    'BEGIN:VEVENT',
    `UID:${appointment.id}@${UID_DOMAIN}`,
    `SEQUENCE:${appointment.sequence}`,
    `DTSTAMP:${updated}`,
    `CREATED:${utcDateTime(appointment.createdAt)}`,
    `LAST-MODIFIED:${updated}`,
    local ? `DTSTART;TZID=${local.zone}:${local.start}` : `DTSTART:${utcDateTime(appointment.start)}`,
    local ? `DTEND;TZID=${local.zone}:${local.end}` : `DTEND:${utcDateTime(appointment.end)}`,
    `SUMMARY:${escapeText(names.service)}`,
    `LOCATION:${escapeText(names.location)}`,
    `STATUS:${CALENDAR_STATUS[appointment.status as appointmentsApi.AppointmentStatus] ?? 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    ...extra,
    ...alarmLines(appointment, names),
    'END:VEVENT',
  ];
}

/**
 * One VALARM per reminder of the appointment's policy (RFC 5545 §3.6.6): a display alarm that long before the start
 * (TRIGGER's default is RELATED=START). A cancelled event has none: nothing should remind anyone of it.
 */
function alarmLines(appointment: schedulingV1.Appointment, names: CalendarNames): string[] {
  if (CALENDAR_STATUS[appointment.status as appointmentsApi.AppointmentStatus] === 'CANCELLED') return [];
  return (appointment.policy?.reminders ?? []).flatMap((offset) => [
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${escapeText(names.service)}`,
    `TRIGGER:-${offset}`,
    'END:VALARM',
  ]);
}

/** The organizer and the attendee of an iTIP message, as `mailto:` addresses (RFC 5546 §3.2.2, §3.2.5). */
function itipLines(itip: ItipEnvelope): string[] {
  const organizerName = itip.organizer.name ? `;CN=${quotedParameter(itip.organizer.name)}` : '';
  return [
    `ORGANIZER${organizerName}:mailto:${itip.organizer.email}`,
    `ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:${itip.attendee.email}`,
  ];
}

/** A parameter value in double quotes (RFC 5545 §3.2): it may hold no quote and no control character. */
// eslint-disable-next-line no-control-regex
const quotedParameter = (value: string) => `"${value.replace(/["\u0000-\u001f\u007f]/g, '')}"`;
