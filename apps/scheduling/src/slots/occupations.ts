import { QueryTypes, type Sequelize } from 'sequelize';
import type { Occupation } from './availability';

/**
 * The time each resource has taken in [fromMs, toMs), sorted by start. A hold past its expiry (by the
 * database clock) counts as free: the next booker reclaims it in its own transaction.
 */
export async function loadOccupations(
  sequelize: Sequelize,
  resourceIds: readonly string[],
  fromMs: number,
  toMs: number,
): Promise<Map<string, Occupation[]>> {
  const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;
  const rows = await sequelize.query<{ resource_id: string; o_start: number; o_end: number; s_start: number; s_end: number; kind: Occupation['kind'] }>(
    `SELECT l.resource_id::text, ${ms('lower(l.occupied)')} AS o_start, ${ms('upper(l.occupied)')} AS o_end,
            ${ms('lower(l.span)')} AS s_start, ${ms('upper(l.span)')} AS s_end,
            CASE WHEN l.block_id IS NOT NULL THEN 'blocked' WHEN a.status = 'held' THEN 'held' ELSE 'booked' END AS kind
       FROM allocation l LEFT JOIN appointments a ON a.id = l.appointment_id
      WHERE l.active AND l.resource_id = ANY($1::uuid[])
        AND l.occupied && tstzrange(to_timestamp($2::float8 / 1000), to_timestamp($3::float8 / 1000))
        AND NOT coalesce(a.status = 'held' AND a.hold_expires_at <= now(), false)
      ORDER BY lower(l.occupied)`,
    { bind: [resourceIds, fromMs, toMs], type: QueryTypes.SELECT },
  );
  const byResource = new Map<string, Occupation[]>(resourceIds.map((id) => [id, []]));
  for (const row of rows) {
    byResource.get(row.resource_id)?.push({
      occupied: { start: row.o_start, end: row.o_end },
      span: { start: row.s_start, end: row.s_end },
      kind: row.kind,
    });
  }
  return byResource;
}
