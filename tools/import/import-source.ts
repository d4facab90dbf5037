import type { Sequelize, Transaction } from 'sequelize';
import type { ParsedRow, ReadOptions } from '@libs/source-formats';

/** One importable format: how to read its file and how to upsert a batch of its records. */
export interface ImportSource<T> {
  /** What the user passes after the file name, and what the file must be, for --help. */
  name: string;
  describe: string;
  read(file: string, options: ReadOptions): AsyncIterable<ParsedRow<T>>;
  /** The source's own id of a record; upserts are keyed on it. */
  key(record: T): string;
  write(sequelize: Sequelize, batch: T[], transaction: Transaction): Promise<void>;
}
