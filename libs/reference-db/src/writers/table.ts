import type { Entity, Field, FieldKind, RecordOf } from '@libs/contracts';

/** The SQL types of the columns writers fill, as jsonb_to_recordset needs them. */
export type ColumnType = 'text' | 'text[]' | 'jsonb' | 'smallint' | 'double precision' | 'boolean';

export interface Column<R> {
  /** The record's property the column holds. */
  property: keyof R & string;
  type: ColumnType;
}

/** Where and how records of one kind are written: every writer is one of these and upsertRecords. */
export interface Table<R> {
  table: string;
  /** The unique column rows are matched on. */
  key: string;
  /** Column → the property it holds, in the order of the INSERT. */
  columns: Record<string, Column<R>>;
  /** Columns where a value the record lacks is stored as NULL; elsewhere as '' or an empty array. */
  nullable?: readonly string[];
  /** Text columns where an empty or missing value keeps what is stored rather than blanking it. */
  keepWhenBlank?: readonly string[];
  /** The column returned as `id` (default `id`). */
  idColumn?: string;
  /** A foreign key `column`, resolved from the referenced row's `key`, which the record holds in `property`. */
  reference?: { column: string; property: keyof R & string; table: string; key: string };
}

type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;
/** A record's property as a column: sourceId is source_id. */
type ColumnOf<R> = Snake<keyof R & string>;

const propertyOf = (column: string): string => column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

/** A catalogue table, whose columns are its records' properties in snake_case. */
export function catalogueTable<R>(table: {
  table: string;
  key: ColumnOf<R>;
  columns: Partial<Record<ColumnOf<R>, ColumnType>>;
  nullable?: readonly ColumnOf<R>[];
  keepWhenBlank?: readonly ColumnOf<R>[];
  idColumn?: ColumnOf<R>;
  reference?: Table<R>['reference'];
}): Table<R> {
  const columns = Object.entries(table.columns as Record<string, ColumnType>).map(
    ([column, type]) => [column, { property: propertyOf(column) as keyof R & string, type }] as const,
  );
  return { ...table, columns: Object.fromEntries(columns) };
}

const COLUMN_TYPES: Record<FieldKind, ColumnType> = { text: 'text', list: 'text[]', joined: 'text[]' };

/** The table of a declared entity (libs/contracts): a column for each field, keyed on its key field. */
export function entityTable<E extends Entity>(table: string, entity: E): Table<RecordOf<E>> {
  const fields = entity.fields as readonly Field[];
  const key = fields.find((field) => field.key);
  if (!key) throw new Error(`${table}: the declaration has no key field`);
  const columns = fields.map(
    (field) => [field.column, { property: field.property as keyof RecordOf<E> & string, type: COLUMN_TYPES[field.kind] }] as const,
  );
  return { table, key: key.column, columns: Object.fromEntries(columns) };
}
