import { QueryTypes, UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import { GrpcStatus, RpcError } from '@libs/grpc';
import type { EntityMessage } from '@libs/contracts';
import type { RecordEntityType, RecordKind } from './record-kinds';

const selectList = (kind: RecordKind<RecordEntityType>) =>
  ['id', ...kind.columns, 'created_at', 'updated_at', ...(kind.versioned ? ['version'] : [])].join(', ');

/** A duplicate of a unique value is a 409 naming the field, not a database error. */
function rethrowDuplicate(kind: RecordKind<RecordEntityType>, error: unknown): never {
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
export async function listRecords<E extends RecordEntityType>(
  sequelize: Sequelize,
  kind: RecordKind<E>,
  where: { column: string; value: string } | null = null,
): Promise<EntityMessage<E>[]> {
  const rows = await sequelize.query<Record<string, unknown>>(
    `SELECT ${selectList(kind)} FROM ${kind.table} ${where ? `WHERE ${where.column} = $1` : ''} ORDER BY created_at, id`,
    { bind: where ? [where.value] : [], type: QueryTypes.SELECT },
  );
  return rows.map(kind.toMessage);
}

export async function findRecord<E extends RecordEntityType>(
  sequelize: Sequelize,
  kind: RecordKind<E>,
  id: string,
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<EntityMessage<E> | undefined> {
  const [row] = await sequelize.query<Record<string, unknown>>(
    `SELECT ${selectList(kind)} FROM ${kind.table} WHERE id = $1 ${options.lock ? 'FOR UPDATE' : ''}`,
    { bind: [id], type: QueryTypes.SELECT, transaction: options.transaction },
  );
  return row && kind.toMessage(row);
}

/** Inserts a record; a duplicate of a unique value is a 409. */
export async function insertRecord<E extends RecordEntityType>(
  sequelize: Sequelize,
  kind: RecordKind<E>,
  values: (string | null)[],
  transaction: Transaction,
): Promise<EntityMessage<E>> {
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
export async function updateRecord<E extends RecordEntityType>(
  sequelize: Sequelize,
  kind: RecordKind<E>,
  id: string,
  changes: [column: string, value: string | null][],
  transaction: Transaction,
): Promise<EntityMessage<E>> {
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
