import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { schedulingV1 } from '@libs/contracts';
import type { Policy } from '../appointments/policy';

export interface ServiceRow {
  id: string;
  name: string;
  duration_minutes: number;
  slot_step_minutes: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  policy: Policy;
  active: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export const SERVICE_COLUMNS = `id::text, name, duration_minutes, slot_step_minutes, buffer_before_minutes, buffer_after_minutes,
  policy, active, version, created_at, updated_at`;

export async function findService(sequelize: Sequelize, id: string, transaction?: Transaction, lock = false): Promise<ServiceRow | undefined> {
  const [row] = await sequelize.query<ServiceRow>(`SELECT ${SERVICE_COLUMNS} FROM services WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`, {
    bind: [id],
    type: QueryTypes.SELECT,
    transaction,
  });
  return row;
}

export const toService = (row: ServiceRow): schedulingV1.Service => ({
  id: row.id,
  name: row.name,
  durationMinutes: row.duration_minutes,
  slotStepMinutes: row.slot_step_minutes,
  bufferBeforeMinutes: row.buffer_before_minutes,
  bufferAfterMinutes: row.buffer_after_minutes,
  policy: row.policy,
  active: row.active,
  version: row.version,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** How the service cuts hours into slots, and the buffers around each. */
export const gridOf = (row: ServiceRow) => ({ durationMinutes: row.duration_minutes, stepMinutes: row.slot_step_minutes });
export const buffersOf = (row: ServiceRow) => ({ beforeMinutes: row.buffer_before_minutes, afterMinutes: row.buffer_after_minutes });
