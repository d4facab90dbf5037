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
  const zone = appointment.timeZone;
  const localStart = zone ? localTimeOf(appointment.start, zone) : undefined;
  const localEnd = zone ? localTimeOf(appointment.end, zone) : undefined;
  const local = localStart !== undefined && localEnd !== undefined;
  return contentLines([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Clinical reference and student finance//Appointments//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${itip?.method ?? 'PUBLISH'}`,
    ...(local ? vtimezone(zone, appointment.start, appointment.end) : []),
    'BEGIN:VEVENT',
    `UID:${appointment.id}@${UID_DOMAIN}`,
    `SEQUENCE:${appointment.sequence}`,
    `DTSTAMP:${utcDateTime(appointment.updatedAt)}`,
    `CREATED:${utcDateTime(appointment.createdAt)}`,
    `LAST-MODIFIED:${utcDateTime(appointment.updatedAt)}`,
    local ? `DTSTART;TZID=${zone}:${localStart}` : `DTSTART:${utcDateTime(appointment.start)}`,
    local ? `DTEND;TZID=${zone}:${localEnd}` : `DTEND:${utcDateTime(appointment.end)}`,
    `SUMMARY:${escapeText(names.service)}`,
    `LOCATION:${escapeText(names.location)}`,
    `STATUS:${CALENDAR_STATUS[appointment.status as appointmentsApi.AppointmentStatus] ?? 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    ...(itip ? itipLines(itip) : []),
    'END:VEVENT',
    'END:VCALENDAR',
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
