import { statSync } from 'node:fs';
import type { Sequelize } from 'sequelize';
import type { ImportSource } from './import-source';
import { ProgressLine } from './progress';

export interface RejectedRow {
  line: number;
  reason: string;
}

export interface ImportResult {
  imported: number;
  rejected: number;
}

const BATCH = 1000;

/**
 * Streams a file through a source's parser and upserts it in batches, one
 * transaction each, so memory stays flat and a re-run converges on the same
 * rows. A bad row is reported and skipped; only an unreadable file or a
 * database failure stops the import (by throwing).
 */
export async function runImport<T>(
  sequelize: Sequelize,
  source: ImportSource<T>,
  file: string,
  reportRejected: (row: RejectedRow) => void,
  progressStream?: NodeJS.WriteStream,
): Promise<ImportResult> {
  const progress = new ProgressLine(source.name, statSync(file).size, progressStream);
  // A later row with the same source id replaces an earlier one: an upsert
  // statement may not touch one row twice.
  let batch = new Map<string, T>();
  let imported = 0;
  let rejected = 0;
  const flush = async () => {
    if (batch.size === 0) return;
    const records = [...batch.values()];
    batch = new Map();
    await sequelize.transaction((transaction) => source.write(sequelize, records, transaction));
    imported += records.length;
  };
  for await (const row of source.read(file, { onBytesRead: (bytes: number) => progress.addBytes(bytes) })) {
    if ('error' in row) {
      rejected += 1;
      reportRejected({ line: row.line, reason: row.error });
    } else {
      batch.set(source.key(row.record), row.record);
      if (batch.size >= BATCH) await flush();
    }
    progress.update(imported + batch.size, rejected);
  }
  await flush();
  // Fresh statistics, or the planner may scan the new rows instead of using the trigram index.
  await sequelize.query('ANALYZE');
  progress.finish(imported, rejected);
  return { imported, rejected };
}
