import { z } from 'zod';
import { CALENDAR_FEED_LIMITS } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { byId } from '../platform/routing/path-ids';
import { json, locationHeader, noContent, problem } from '../platform/routing/responses';
import { access, CALENDAR_FEEDS_PATH, tag } from './calendar-operation-parts';
import { calendarFeed, calendarFeedWithUrl, newCalendarFeed } from './schemas';

/** Calendar feeds (docs/SCHEDULING.md, "Calendar feeds"): secret URLs a calendar app subscribes to. */

const { feedsPerUser, pastDays, futureDays, events, cancelledDays, readsPerMinute } = CALENDAR_FEED_LIMITS;

export const createCalendarFeed = operation({
  method: 'post',
  path: CALENDAR_FEEDS_PATH,
  operationId: 'createCalendarFeed',
  summary: 'A new subscription URL of your appointments; shown once',
  description: `A student's feed shows their own appointments; a clinician's those of the resources they staff at the time it is read; an admin names a resource. At most ${feedsPerUser} live feeds a user.`,
  tag,
  access,
  request: { body: newCalendarFeed },
  responses: {
    '201': json('Created: `url` is the only time the secret URL is shown; `Location` names the feed (to revoke it).', calendarFeedWithUrl, locationHeader),
    '403': problem('A resource you do not staff.'),
    '404': problem('No such resource.'),
    '409': problem(`You have ${feedsPerUser} live feeds already (\`feed_limit\`): revoke one first.`),
  },
});

export const listCalendarFeeds = operation({
  method: 'get',
  path: CALENDAR_FEEDS_PATH,
  operationId: 'listCalendarFeeds',
  summary: 'Your live calendar feeds, oldest first (never their URLs)',
  tag,
  access,
  request: {},
  responses: { '200': json('Your live feeds.', z.object({ feeds: z.array(calendarFeed).max(feedsPerUser) })) },
});

export const revokeCalendarFeed = operation({
  method: 'delete',
  path: `${CALENDAR_FEEDS_PATH}/{id}`,
  operationId: 'revokeCalendarFeed',
  summary: 'Revoke a feed: its URL stops working at once',
  tag,
  access,
  request: { path: byId('Calendar feed') },
  responses: { '204': noContent('Revoked.'), '404': problem('No such live feed among yours.') },
});

export const readCalendarFeed = operation({
  method: 'get',
  path: `${CALENDAR_FEEDS_PATH}/{token}.ics`,
  operationId: 'readCalendarFeed',
  summary: 'A feed as iCalendar (RFC 5545), for a calendar app to subscribe to',
  description: [
    'Needs no key: the URL is the credential. Appointments starting up to',
    `${futureDays} days ahead and ending at most ${pastDays} days ago, at most ${events} (the nearest to now first), each VEVENT exactly as the appointment's own \`.ics\` has it (UID, SEQUENCE, times with TZID and VTIMEZONE, STATUS).`,
    `Holds are not shown; a cancelled appointment is shown as STATUS:CANCELLED for ${cancelledDays} days after its cancellation.`,
    `Each URL may be read ${readsPerMinute} times a minute (a 429 with Retry-After beyond). Any token of no live feed is the same 404.`,
  ].join(' '),
  tag,
  access: { public: true },
  request: { path: z.object({ token: z.string().meta({ description: 'The secret part of the URL, as the 201 gave it.' }) }) },
  responses: {
    '200': {
      description: 'A VCALENDAR: `Cache-Control: private, no-cache`, so that no cache serves a revoked feed without asking.',
      content: { 'text/calendar': z.string() },
      headers: { ETag: { description: 'A strong tag of this body, for If-None-Match (a 304 when unchanged).', schema: z.string() } },
    },
    '304': noContent('Unchanged since the ETag sent in If-None-Match.'),
    '404': problem('No such feed: wrong, revoked or never made alike.'),
    '429': problem('Read too often: wait Retry-After seconds.', { 'Retry-After': { description: 'Seconds.', schema: z.string() } }),
  },
});
