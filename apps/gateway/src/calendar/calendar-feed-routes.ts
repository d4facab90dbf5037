import { createHash } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { feedCalendar } from '@libs/calendar';
import type { schedulingV1 } from '@libs/contracts';
import { GATEWAY_ACTOR } from '@libs/grpc';
import { HttpProblem } from '@libs/http-problems';
import { signedIn } from '../identity/access-guard';
import { findUser } from '../identity/user-store';
import { publicBaseOf } from '../platform/http/fhir-request';
import type { CallerKey } from '../platform/routing/access';
import { route, type Route } from '../platform/routing/operation';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './calendar-feed-operations';
import { CALENDAR_FEEDS_PATH } from './calendar-operation-parts';
import { FeedThrottle } from './feed-throttle';
import { feedTokenHash, newFeedToken } from './feed-token';

/** What a calendar app shows as the subscription's name, and how often it is asked to read the feed again. */
const FEED_HEADER = { name: 'Appointments', refreshInterval: 'PT1H' };

/** The one answer to every token of no live feed, whatever the reason: nothing tells a revoked feed from a guess. */
const noSuchFeed = () => new HttpProblem(404, 'no such calendar feed');

const feedJson = (feed: schedulingV1.CalendarFeed | undefined) => {
  if (!feed) throw new HttpProblem(500, 'the scheduling service answered without the calendar feed');
  return { id: feed.id, ...(feed.resourceId ? { resourceId: feed.resourceId } : {}), createdAt: feed.createdAt };
};

/** The feed's events in order of start (then id), each start read once: a feed sorts thousands. */
function byStart(events: schedulingV1.CalendarFeedEvent[]): schedulingV1.CalendarFeedEvent[] {
  const keyed = events.map((event) => ({ event, start: Date.parse(event.appointment?.start ?? ''), id: event.appointment?.id ?? '' }));
  keyed.sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return keyed.map(({ event }) => event);
}

/** /api/v1/calendar/feeds: made, listed and revoked by their owner in scheduling; read by URL, rendered here. */
export function calendarFeedRoutes(sequelize: Sequelize, upstreams: Upstreams): Route[] {
  const scheduling = upstreams.scheduling;
  const throttle = new FeedThrottle();
  // A dashboard session has no key: the account signed in is the actor either way.
  const asAccount = (upstream: UpstreamCall, account: ReturnType<typeof signedIn>) => ({ ...upstream, key: { userId: account.userId, role: account.role } });

  /** A live feed and what it shows, or the one 404. */
  async function readFeed(tokenHash: string, upstream: UpstreamCall): Promise<schedulingV1.ReadCalendarFeedResponse> {
    try {
      // The URL is the credential: the gateway asks for itself, and the service answers for the feed's owner.
      return await scheduling.call((c) => c.readCalendarFeed, { tokenHash }, { ...upstream, key: GATEWAY_ACTOR as CallerKey });
    } catch (error) {
      throw error instanceof HttpProblem && error.status === 404 ? noSuchFeed() : error;
    }
  }

  return [
    route(op.createCalendarFeed, async ({ body }, { req, res, caller, upstream }) => {
      const token = newFeedToken();
      const request = { resourceId: body.resourceId ?? '', tokenHash: feedTokenHash(token) };
      const { feed } = await scheduling.call((c) => c.createCalendarFeed, request, asAccount(upstream, signedIn(caller.account)));
      const created = feedJson(feed);
      res.location(`${CALENDAR_FEEDS_PATH}/${created.id}`);
      res.status(201).json({ ...created, url: `${publicBaseOf(req)}${CALENDAR_FEEDS_PATH}/${token}.ics` });
    }),

    route(op.listCalendarFeeds, async (_input, { res, caller, upstream }) => {
      const { feeds } = await scheduling.call((c) => c.listCalendarFeeds, {}, asAccount(upstream, signedIn(caller.account)));
      res.json({ feeds: feeds.map(feedJson) });
    }),

    route(op.revokeCalendarFeed, async ({ path }, { res, caller, upstream }) => {
      await scheduling.call((c) => c.revokeCalendarFeed, { id: path.id }, asAccount(upstream, signedIn(caller.account)));
      res.status(204).end();
    }),

    route(op.readCalendarFeed, async ({ path }, { res, upstream }) => {
      // Hashed before anything else, whatever was sent: every token costs the same up to the lookup by its hash.
      const tokenHash = feedTokenHash(path.token);
      throttle.admit(tokenHash);
      const { feed, events } = await readFeed(tokenHash, upstream);
      // The feed reads as its owner would now: an owner deleted, or whose role changed, reads nothing through it.
      const owner = feed && (await findUser(sequelize, feed.ownerId));
      if (!feed || !owner || owner.role !== feed.ownerRole) throw noSuchFeed();
      const body = feedCalendar(
        byStart(events).map((event) => ({
          appointment: event.appointment as schedulingV1.Appointment,
          names: { service: event.serviceName, location: event.locationName },
        })),
        FEED_HEADER,
      );
      // Strong, of the body: a calendar app polling an unchanged feed gets a 304 (Express answers If-None-Match).
      // private, no-cache: no shared cache keeps it, and none serves it without asking, so a revoked URL fails at once.
      res
        .type('text/calendar; charset=utf-8')
        .set({ ETag: `"${createHash('sha256').update(body).digest('base64url')}"`, 'Cache-Control': 'private, no-cache' })
        .send(body);
    }),
  ];
}
