import { QueryTypes } from 'sequelize';
import { CALENDAR_FEED_LIMITS, isGranted, type schedulingV1 } from '@libs/contracts';
import { GrpcStatus, ProblemError, requireGateway, requirePermission, RpcError, type CallContext } from '@libs/grpc';
import { writeTransaction } from '@libs/outbox';
import { notFound, requireUuid } from '@libs/validation';
import { requireStaffing, scopeOf } from '../access';
import { toAppointment } from '../appointments/appointment-row';
import { findResource } from '../resources/resource-store';
import type { SchedulingDeps } from '../scheduling-deps';
import { feedEvents, findLiveFeed, insertFeed, liveFeedsOf, toFeed } from './calendar-feed-store';

/** A token's SHA-256 as the gateway sends it. */
const TOKEN_HASH = /^[0-9a-f]{64}$/;

/** The permission a feed reads under: the same reads as GET /api/v1/appointments, by whoever made the feed. */
const FEED_PERMISSION = 'appointments:read';

/** Calendar feeds (docs/SCHEDULING.md, "Calendar feeds"): made, listed and revoked by their owner; read by the gateway alone. */
export function calendarFeedHandlers(deps: SchedulingDeps) {
  const { sequelize } = deps;

  return {
    async createCalendarFeed(request: schedulingV1.CreateCalendarFeedRequest, context: CallContext): Promise<schedulingV1.CreateCalendarFeedResponse> {
      const actor = requirePermission(context, FEED_PERMISSION);
      if (!TOKEN_HASH.test(request.tokenHash)) throw RpcError.invalidArgument('tokenHash', 'must be 64 lower-case hex digits');
      const scope = await scopeOf(sequelize, actor);
      const resourceId = request.resourceId ? requireUuid(request.resourceId) : null;
      if (resourceId) {
        if (!(await findResource(sequelize, resourceId))) throw notFound('resource');
        // A feed of one resource is the staff's view of it: an admin's, or a clinician's of a resource they staff.
        requireStaffing(scope, resourceId);
      }
      return writeTransaction(deps, undefined, async (transaction) => {
        // One owner's creates wait for each other here, so two at once cannot both take the last place.
        await sequelize.query("SELECT pg_advisory_xact_lock(hashtext('calendar_feeds:' || $1))", { bind: [actor.userId], transaction });
        if ((await liveFeedsOf(sequelize, actor.userId, transaction)).length >= CALENDAR_FEED_LIMITS.feedsPerUser) {
          throw new ProblemError(
            GrpcStatus.FAILED_PRECONDITION,
            `a user may have at most ${CALENDAR_FEED_LIMITS.feedsPerUser} calendar feeds; revoke one first`,
            { type: 'feed_limit', limit: CALENDAR_FEED_LIMITS.feedsPerUser },
          );
        }
        const feed = await insertFeed(sequelize, transaction, { ownerId: actor.userId, ownerRole: actor.role, resourceId, tokenHash: request.tokenHash });
        return { feed: toFeed(feed) };
      });
    },

    async listCalendarFeeds(_request: schedulingV1.ListCalendarFeedsRequest, context: CallContext): Promise<schedulingV1.ListCalendarFeedsResponse> {
      const actor = requirePermission(context, FEED_PERMISSION);
      return { feeds: (await liveFeedsOf(sequelize, actor.userId)).map(toFeed) };
    },

    /** Revoked at once: the next read of its URL is the 404 of a token never issued. Another user's feed is as absent. */
    async revokeCalendarFeed(request: schedulingV1.RevokeCalendarFeedRequest, context: CallContext): Promise<schedulingV1.RevokeCalendarFeedResponse> {
      const actor = requirePermission(context, FEED_PERMISSION);
      const id = requireUuid(request.id);
      return writeTransaction(deps, undefined, async (transaction) => {
        const revoked = await sequelize.query<{ id: string }>(
          'UPDATE calendar_feeds SET revoked_at = now() WHERE id = $1 AND owner_id = $2 AND revoked_at IS NULL RETURNING id::text',
          { bind: [id, actor.userId], type: QueryTypes.SELECT, transaction },
        );
        if (revoked.length === 0) throw notFound('calendar feed');
        return {};
      });
    },

    /**
     * What a live feed shows now, as its owner would read it now: the owner's reach under the role the feed was
     * made with (the gateway serves it only while the owner still has that role), and the staffing of today.
     */
    async readCalendarFeed(request: schedulingV1.ReadCalendarFeedRequest, context: CallContext): Promise<schedulingV1.ReadCalendarFeedResponse> {
      requireGateway(context);
      const row = TOKEN_HASH.test(request.tokenHash) ? await findLiveFeed(sequelize, Buffer.from(request.tokenHash, 'hex')) : undefined;
      if (!row || !isGranted(row.owner_role, FEED_PERMISSION)) throw notFound('calendar feed');
      const scope = await scopeOf(sequelize, { userId: row.owner_id, role: row.owner_role });
      const events = await feedEvents(sequelize, scope, row.resource_id);
      return {
        feed: toFeed(row),
        events: events.map((event) => ({ appointment: toAppointment(event), serviceName: event.service_name, locationName: event.location_name })),
      };
    },
  };
}
