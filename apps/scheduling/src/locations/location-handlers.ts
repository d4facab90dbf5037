import { QueryTypes } from 'sequelize';
import { SCHEDULING_LIMITS, schedulingApi, schedulingFields, type schedulingV1 } from '@libs/contracts';
import { requirePermission, type CallContext } from '@libs/grpc';
import { recordEvent, writeTransaction } from '@libs/outbox';
import { isText, keysetPage, pageSize } from '@libs/cursor';
import { checkVersion, FieldChecks, notFound, parseInput } from '@libs/validation';
import type { SchedulingDeps } from '../scheduling-deps';
import { findLocation, PREMISE_ID, toLocation, type LocationRow } from './location-store';

const { canonicalZone } = schedulingFields;

export function locationHandlers(deps: SchedulingDeps) {
  const { sequelize, cursors } = deps;
  return {
    async listLocations(request: schedulingV1.ListLocationsRequest, context: CallContext): Promise<schedulingV1.ListLocationsResponse> {
      requirePermission(context, 'scheduling:browse');
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { locations: true },
        limit: pageSize(request.limit, SCHEDULING_LIMITS.page),
        isPosition: isText,
        positionOf: (row: LocationRow) => row.premise_id,
        fetch: (after, limit) =>
          sequelize.query<LocationRow>(
            `SELECT premise_id, name, time_zone, version, created_at, updated_at FROM locations
              WHERE $1::bigint IS NULL OR premise_id::bigint > $1::bigint ORDER BY premise_id::bigint LIMIT $2`,
            { bind: [after ?? null, limit], type: QueryTypes.SELECT },
          ),
      });
      return { locations: page.rows.map(toLocation), nextCursor: page.nextCursor };
    },

    async getLocation(request: schedulingV1.GetLocationRequest, context: CallContext): Promise<schedulingV1.GetLocationResponse> {
      requirePermission(context, 'scheduling:browse');
      const row = await findLocation(sequelize, request.premiseId);
      if (!row) throw notFound('location');
      return { location: toLocation(row) };
    },

    /** Makes a premise bookable, or changes its zone; the reference service must know the premise. */
    async putLocation(request: schedulingV1.PutLocationRequest, context: CallContext): Promise<schedulingV1.PutLocationResponse> {
      const actor = requirePermission(context, 'scheduling:configure');
      const checks = new FieldChecks().check(PREMISE_ID.test(request.premiseId), 'premiseId', 'must be a premise id');
      const { timeZone } = parseInput(schedulingApi.locationPut, { timeZone: request.timeZone }, checks);
      const zone = canonicalZone(timeZone);
      const premise = await deps.premises.find({ id: request.premiseId }, context.requestId);
      if (!premise) throw notFound('premise');
      return writeTransaction(deps, undefined, async (transaction) => {
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
