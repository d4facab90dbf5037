import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { CALENDAR_FEED_LIMITS, CALENDAR_STATUS, type appointmentsApi, type schedulingV1 } from '@libs/contracts';
import { scopeCondition, type Scope } from '../access';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../appointments/appointment-row';

export interface FeedRow {
  id: string;
  owner_id: string;
  owner_role: string;
  resource_id: string | null;
  created_at: Date;
}

const FEED_COLUMNS = 'f.id::text, f.owner_id, f.owner_role, f.resource_id::text, f.created_at';

export const toFeed = (row: FeedRow): schedulingV1.CalendarFeed => ({
  id: row.id,
  ownerId: row.owner_id,
  ownerRole: row.owner_role,
  resourceId: row.resource_id ?? '',
  createdAt: row.created_at.toISOString(),
});

/** A live feed by its token's hash: one indexed lookup whatever the hash, so a revoked feed and an unknown one look alike. */
export async function findLiveFeed(sequelize: Sequelize, tokenHash: Buffer): Promise<FeedRow | undefined> {
  const [row] = await sequelize.query<FeedRow>(`SELECT ${FEED_COLUMNS} FROM calendar_feeds f WHERE f.token_hash = $1 AND f.revoked_at IS NULL`, {
    bind: [tokenHash],
    type: QueryTypes.SELECT,
  });
  return row;
}

export async function liveFeedsOf(sequelize: Sequelize, ownerId: string, transaction?: Transaction): Promise<FeedRow[]> {
  return sequelize.query<FeedRow>(
    `SELECT ${FEED_COLUMNS} FROM calendar_feeds f WHERE f.owner_id = $1 AND f.revoked_at IS NULL ORDER BY f.created_at, f.id`,
    { bind: [ownerId], type: QueryTypes.SELECT, transaction },
  );
}

export async function insertFeed(
  sequelize: Sequelize,
  transaction: Transaction,
  feed: { ownerId: string; ownerRole: string; resourceId: string | null; tokenHash: string },
): Promise<FeedRow> {
  const [row] = await sequelize.query<FeedRow>(
    `INSERT INTO calendar_feeds AS f (owner_id, owner_role, resource_id, token_hash) VALUES ($1, $2, $3, decode($4, 'hex')) RETURNING ${FEED_COLUMNS}`,
    { bind: [feed.ownerId, feed.ownerRole, feed.resourceId, feed.tokenHash], type: QueryTypes.SELECT, transaction },
  );
  return row;
}

/** The statuses a feed shows, and those it shows as cancelled (for a while): from the one table of calendar statuses. */
const statusesWhere = (wanted: (calendarStatus: string) => boolean) =>
  (Object.keys(CALENDAR_STATUS) as appointmentsApi.AppointmentStatus[]).filter((status) => wanted(CALENDAR_STATUS[status]));
/** A hold lasts minutes and a calendar polls every few hours: a hold in a feed would mostly show a time already gone. */
const SHOWN = statusesWhere((status) => status !== 'TENTATIVE');
const CANCELLED = statusesWhere((status) => status === 'CANCELLED');

export type FeedEventRow = AppointmentRow & { service_name: string; location_name: string };

/**
 * The appointments a feed shows now: those `scope` reaches (of `resourceId` only, when set) overlapping the window
 * around now, holds left out, cancelled ones only while recently cancelled (an entry made in error: since it was
 * marked), the nearest to now first, at most CALENDAR_FEED_LIMITS.events.
 */
export async function feedEvents(sequelize: Sequelize, scope: Scope, resourceId: string | null): Promise<FeedEventRow[]> {
  const bind: unknown[] = [];
  const add = (value: unknown) => `$${bind.push(value)}`;
  const where = [
    `a.status = ANY(${add(SHOWN)}::text[])`,
    `upper(a.span) > now() - make_interval(days => ${add(CALENDAR_FEED_LIMITS.pastDays)})`,
    `lower(a.span) < now() + make_interval(days => ${add(CALENDAR_FEED_LIMITS.futureDays)})`,
    `(a.status <> ALL(${add(CANCELLED)}::text[])
      OR coalesce(a.cancelled_at, a.updated_at) > now() - make_interval(days => ${add(CALENDAR_FEED_LIMITS.cancelledDays)}))`,
  ];
  const reached = scopeCondition(scope, add);
  if (reached) where.push(reached);
  if (resourceId) where.push(`a.resource_id = ${add(resourceId)}`);
  return sequelize.query<FeedEventRow>(
    `SELECT ${APPOINTMENT_COLUMNS}, s.name AS service_name, l.name AS location_name
       FROM appointments a JOIN services s ON s.id = a.service_id JOIN locations l ON l.premise_id = a.location_id
      WHERE ${where.join(' AND ')}
      ORDER BY abs(extract(epoch FROM lower(a.span) - now())), a.id
      LIMIT ${add(CALENDAR_FEED_LIMITS.events)}`,
    { bind, type: QueryTypes.SELECT },
  );
}
