import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { schedulingV1 } from '@libs/contracts';

export interface ResourceRow {
  id: string;
  location_id: string;
  kind: string;
  name: string;
  active: boolean;
  version: number;
  rules_version: number;
  time_zone: string;
  service_ids: string[];
  staff_user_ids: string[];
  created_at: Date;
  updated_at: Date;
}

const RESOURCE_SELECT = `SELECT r.id::text, r.location_id, r.kind, r.name, r.active, r.version, r.rules_version, l.time_zone,
    ARRAY(SELECT s.service_id::text FROM resource_services s WHERE s.resource_id = r.id ORDER BY s.service_id) AS service_ids,
    ARRAY(SELECT f.user_id FROM staffing f WHERE f.resource_id = r.id ORDER BY f.user_id) AS staff_user_ids,
    r.created_at, r.updated_at
  FROM resources r JOIN locations l ON l.premise_id = r.location_id`;

export async function findResource(sequelize: Sequelize, id: string, transaction?: Transaction, lock = false): Promise<ResourceRow | undefined> {
  const [row] = await sequelize.query<ResourceRow>(`${RESOURCE_SELECT} WHERE r.id = $1 ${lock ? 'FOR UPDATE OF r' : ''}`, {
    bind: [id],
    type: QueryTypes.SELECT,
    transaction,
  });
  return row;
}

/** Resources in id order after `after` (keyset), optionally of one location, or only the active ones offering a service. */
export function listResources(
  sequelize: Sequelize,
  filter: { locationId?: string; resourceId?: string; offering?: string; after?: string | null; limit?: number },
): Promise<ResourceRow[]> {
  const where = ['TRUE'];
  const bind: unknown[] = [];
  const add = (value: unknown) => `$${bind.push(value)}`;
  if (filter.locationId) where.push(`r.location_id = ${add(filter.locationId)}`);
  if (filter.resourceId) where.push(`r.id = ${add(filter.resourceId)}`);
  if (filter.offering) where.push(`r.active AND EXISTS (SELECT 1 FROM resource_services s WHERE s.resource_id = r.id AND s.service_id = ${add(filter.offering)})`);
  if (filter.after) where.push(`r.id > ${add(filter.after)}`);
  const limit = filter.limit ? ` LIMIT ${add(filter.limit)}` : '';
  return sequelize.query<ResourceRow>(`${RESOURCE_SELECT} WHERE ${where.join(' AND ')} ORDER BY r.id${limit}`, { bind, type: QueryTypes.SELECT });
}

/** Staff user ids are shown to staff only. */
export const toResource = (row: ResourceRow, showStaff: boolean): schedulingV1.Resource => ({
  id: row.id,
  locationId: row.location_id,
  kind: row.kind,
  name: row.name,
  active: row.active,
  serviceIds: row.service_ids,
  staffUserIds: showStaff ? row.staff_user_ids : [],
  version: row.version,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
