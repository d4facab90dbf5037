/** What the calendar area's declarations and routes share. */

export const tag = 'Calendar feeds';
export const CALENDAR_FEEDS_PATH = '/api/v1/calendar/feeds';
/** A feed shows what its owner reads of appointments: made and managed by those who may read them. */
export const access = { account: 'appointments:read' } as const;
