import { QueryTypes, UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize';
import { GrpcStatus, RpcError } from '@libs/grpc';
import type { RecordKind } from './record-kinds';

const selectList = (kind: RecordKind<unknown>) => ['id', ...kind.columns, 'created_at', 'updated_at'].join(', ');

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

export async function findRecord<T>(sequelize: Sequelize, kind: RecordKind<T>, id: string): Promise<T | undefined> {
  const [row] = await sequelize.query<Record<string, unknown>>(`SELECT ${selectList(kind)} FROM ${kind.table} WHERE id = $1`, {
    bind: [id],
    type: QueryTypes.SELECT,
  });
  return row && kind.toMessage(row);
}

/** Inserts a record; a duplicate of a unique value is a 409 naming the field, not a database error. */
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
    const constraint = (error as { parent?: { constraint?: string } }).parent?.constraint ?? '';
    if (error instanceof UniqueConstraintError && kind.unique[constraint]) {
      const field = kind.unique[constraint];
      throw new RpcError(GrpcStatus.ALREADY_EXISTS, `another ${kind.entityType} already has this ${field}`, [
        { field, message: 'is already taken' },
      ]);
    }
    throw error;
  }
}
