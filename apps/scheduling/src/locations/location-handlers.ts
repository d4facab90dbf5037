import { QueryTypes } from 'sequelize';
import type { schedulingV1 } from '@libs/contracts';
import { requireRole, type CallContext } from '@libs/grpc';
import { recordEvent } from '@libs/outbox';
import { checkVersion, cursorPosition, FieldChecks, notFound, pageLimit, pageOf } from '@libs/validation';
import { SCHEDULING_ACCESS } from '../access';
import { mutate, type SchedulingDeps } from '../mutation';
import { timeChecks } from '../time/time-input';
import { findLocation, PREMISE_ID, toLocation, type LocationRow } from './location-store';

export function locationHandlers(deps: SchedulingDeps) {
  const { sequelize, cursors } = deps;
  return {
    async listLocations(request: schedulingV1.ListLocationsRequest, context: CallContext): Promise<schedulingV1.ListLocationsResponse> {
      requireRole(context, SCHEDULING_ACCESS.browse);
      const limit = pageLimit(request.limit);
      const after = cursorPosition<string>(cursors, request.cursor, { locations: true });
      const rows = await sequelize.query<LocationRow>(
        `SELECT premise_id, name, time_zone, version, created_at, updated_at FROM locations
          WHERE $1::bigint IS NULL OR premise_id::bigint > $1::bigint ORDER BY premise_id::bigint LIMIT $2`,
        { bind: [after, limit + 1], type: QueryTypes.SELECT },
      );
      const page = pageOf(rows, limit, cursors, { locations: true }, (last) => last.premise_id);
      return { locations: page.items.map(toLocation), nextCursor: page.nextCursor };
    },

    async getLocation(request: schedulingV1.GetLocationRequest, context: CallContext): Promise<schedulingV1.GetLocationResponse> {
      requireRole(context, SCHEDULING_ACCESS.browse);
      const row = await findLocation(sequelize, request.premiseId);
      if (!row) throw notFound('location', request.premiseId);
      return { location: toLocation(row) };
    },

    /** Makes a premise bookable, or changes its zone; the reference service must know the premise. */
    async putLocation(request: schedulingV1.PutLocationRequest, context: CallContext): Promise<schedulingV1.PutLocationResponse> {
      const actor = requireRole(context, SCHEDULING_ACCESS.configure);
      const checks = new FieldChecks().check(PREMISE_ID.test(request.premiseId), 'premiseId', 'must be a premise id');
      const zone = timeChecks.zone(checks, request.timeZone, 'timeZone');
      checks.throwIfAny();
      const premise = await deps.premises.find({ id: request.premiseId }, context.requestId);
      if (!premise) throw notFound('premise', request.premiseId);
      return mutate(deps, actor, undefined, async (transaction) => {
        const before = await findLocation(sequelize, premise.id, transaction, true);
        if (before) checkVersion('location', before.version, request.expectedVersion);
        await sequelize.query(
          `INSERT INTO locations (premise_id, name, time_zone) VALUES ($1, $2, $3)
           ON CONFLICT (premise_id) DO UPDATE SET name = $2, time_zone = $3, version = locations.version + 1, updated_at = now()`,
          { bind: [premise.id, premise.name, zone], transaction },
        );
        const after = (await findLocation(sequelize, premise.id, transaction)) as LocationRow;
        await recordEvent(sequelize, transaction, context, actor, {
          action: before ? 'location.updated' : 'location.enabled',
          entityType: 'location',
          entityIds: [premise.id],
          before: before && toLocation(before),
          after: toLocation(after),
        });
        return { location: toLocation(after), created: !before };
      });
    },
  };
}
