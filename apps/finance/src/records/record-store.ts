import { QueryTypes, UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import { GrpcStatus, RpcError } from '@libs/grpc';
import type { RecordKind } from './record-kinds';

const selectList = (kind: RecordKind<unknown>) =>
  ['id', ...kind.columns, 'created_at', 'updated_at', ...(kind.versioned ? ['version'] : [])].join(', ');

/** A duplicate of a unique value is a 409 naming the field, not a database error. */
function rethrowDuplicate(kind: RecordKind<unknown>, error: unknown): never {
  const constraint = (error as { parent?: { constraint?: string } }).parent?.constraint ?? '';
  if (error instanceof UniqueConstraintError && kind.unique[constraint]) {
    const field = kind.unique[constraint];
    throw new RpcError(GrpcStatus.ALREADY_EXISTS, `another ${kind.entityType} already has this ${field}`, [
      { field, message: 'is already taken' },
    ]);
  }
  throw error;
}

/** Lists are small reference tables (tens to hundreds of rows), returned whole in name/creation order. */
export async function listRecords<T>(
  sequelize: Sequelize,
  kind: RecordKind<T>,
  where: { column: string; value: string } | null = null,
): Promise<T[]> {
  const rows = await sequelize.query<Record<string, unknown>>(
    `SELECT ${selectList(kind)} FROM ${kind.table} ${where ? `WHERE ${where.column} = $1` : ''} ORDER BY created_at, id`,
    { bind: where ? [where.value] : [], type: QueryTypes.SELECT },
  );
  return rows.map(kind.toMessage);
}

export async function findRecord<T>(
  sequelize: Sequelize,
  kind: RecordKind<T>,
  id: string,
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<T | undefined> {
  const [row] = await sequelize.query<Record<string, unknown>>(
    `SELECT ${selectList(kind)} FROM ${kind.table} WHERE id = $1 ${options.lock ? 'FOR UPDATE' : ''}`,
    { bind: [id], type: QueryTypes.SELECT, transaction: options.transaction },
  );
  return row && kind.toMessage(row);
}

/** Inserts a record; a duplicate of a unique value is a 409. */
export async function insertRecord<T>(
  sequelize: Sequelize,
  kind: RecordKind<T>,
  values: (string | null)[],
  transaction: Transaction,
): Promise<T> {
  const placeholders = kind.columns.map((_, i) => `$${i + 1}`).join(', ');
  try {
    const [row] = await sequelize.query<Record<string, unknown>>(
      `INSERT INTO ${kind.table} (${kind.columns.join(', ')}) VALUES (${placeholders}) RETURNING ${selectList(kind)}`,
      { bind: values, type: QueryTypes.SELECT, transaction },
    );
    return kind.toMessage(row);
  } catch (error) {
    rethrowDuplicate(kind, error);
  }
}

/** Sets the given columns and bumps the version; the caller holds the row lock. */
export async function updateRecord<T>(
  sequelize: Sequelize,
  kind: RecordKind<T>,
  id: string,
  changes: [column: string, value: string | null][],
  transaction: Transaction,
): Promise<T> {
  const assignments = changes.map(([column], i) => `${column} = $${i + 2}`).join(', ');
  try {
    const [row] = await sequelize.query<Record<string, unknown>>(
      `UPDATE ${kind.table} SET ${assignments}, version = version + 1, updated_at = now() WHERE id = $1
       RETURNING ${selectList(kind)}`,
      { bind: [id, ...changes.map(([, value]) => value)], type: QueryTypes.SELECT, transaction },
    );
    return kind.toMessage(row);
  } catch (error) {
    rethrowDuplicate(kind, error);
  }
}
