/** The appointment as iCalendar: the gateway's `.ics` and the notifications service's iTIP mail parts, from one renderer. */
export { appointmentCalendar, type CalendarNames, type ItipEnvelope } from './appointment-calendar';
