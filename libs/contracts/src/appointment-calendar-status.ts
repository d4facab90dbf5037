import type { AppointmentStatus } from './api/appointments';

/**
 * The iCalendar VEVENT STATUS (RFC 5545 §3.8.1.11) of each appointment status: a hold is tentative, a
 * cancellation or an entry made in error cancels the event, anything else stands. The gateway writes it; the
 * scheduling service adds 1 to SEQUENCE whenever it changes (RFC 5545 §3.8.7.4).
 */
export const CALENDAR_STATUS: Record<AppointmentStatus, 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED'> = {
  held: 'TENTATIVE',
  booked: 'CONFIRMED',
  checked_in: 'CONFIRMED',
  fulfilled: 'CONFIRMED',
  noshow: 'CONFIRMED',
  cancelled: 'CANCELLED',
  entered_in_error: 'CANCELLED',
};
