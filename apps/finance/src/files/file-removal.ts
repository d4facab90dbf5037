import type { Sequelize } from 'sequelize';
import type { FileStorage } from './file-storage';
import { deleteFileRows, expiredUploads } from './file-store';

/** Deletes uploads: their bytes first, then their rows (which would otherwise find the bytes again). */
export async function removeFiles(sequelize: Sequelize, storage: FileStorage, ids: string[]): Promise<void> {
  await storage.remove(ids);
  await deleteFileRows(sequelize, ids);
}

/**
 * Removes every upload no payment named in time, a batch at a time, and answers how many. Run on a timer by each
 * instance (SweepLoop), so that abandoned uploads go even when nobody uploads again; two instances removing the
 * same upload at once both delete it, the second one nothing.
 */
export async function sweepExpiredUploads(sequelize: Sequelize, storage: FileStorage): Promise<number> {
  let removed = 0;
  for (let batch = await expiredUploads(sequelize); batch.length > 0; batch = await expiredUploads(sequelize)) {
    await removeFiles(sequelize, storage, batch.map((expired) => expired.id));
    removed += batch.length;
  }
  return removed;
}
