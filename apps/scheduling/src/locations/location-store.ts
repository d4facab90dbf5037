import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { schedulingApi, type schedulingV1 } from '@libs/contracts';

export interface LocationRow {
  premise_id: string;
  name: string;
  time_zone: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** Premise ids are the reference service's: positive decimal bigints. */
export const { PREMISE_ID } = schedulingApi;

export async function findLocation(sequelize: Sequelize, premiseId: string, transaction?: Transaction, lock = false): Promise<LocationRow | undefined> {
  if (!PREMISE_ID.test(premiseId)) return undefined;
  const [row] = await sequelize.query<LocationRow>(
    `SELECT premise_id, name, time_zone, version, created_at, updated_at FROM locations WHERE premise_id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    { bind: [premiseId], type: QueryTypes.SELECT, transaction },
  );
  return row;
}

export const toLocation = (row: LocationRow): schedulingV1.Location => ({
  premiseId: row.premise_id,
  name: row.name,
  timeZone: row.time_zone,
  version: row.version,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});
