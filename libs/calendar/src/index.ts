/** Appointments as iCalendar: the gateway's `.ics` and feeds, and the notifications service's iTIP mail parts, from one renderer. */
export { appointmentCalendar, feedCalendar, type CalendarEvent, type CalendarNames, type FeedHeader, type ItipEnvelope } from './appointment-calendar';
export { wallClock } from './zone-offsets';
