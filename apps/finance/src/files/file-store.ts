import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { FILE_LIMITS, type financeV1 } from '@libs/contracts';
import type { FileType } from './file-content';

interface FileRow {
  id: string;
  purpose: string;
  name: string;
  content_type: FileType;
  size: string;
  sha256: string;
  created_at: Date;
  payment_id: string | null;
  storage: 'postgres' | 's3';
}

const COLUMNS = 'id, purpose, name, content_type, size::text AS size, sha256, created_at, payment_id, storage';

const toStoredFile = (row: FileRow): financeV1.StoredFile => ({
  id: row.id,
  purpose: row.purpose,
  name: row.name,
  contentType: row.content_type,
  size: row.size,
  sha256: row.sha256,
  createdAt: row.created_at.toISOString(),
});

/** The row of an upload under way: it exists from the first byte, so that a refused or abandoned one is found. */
export async function insertUpload(
  sequelize: Sequelize,
  upload: { id: string; purpose: string; name: string; uploadedBy: string; storage: 'postgres' | 's3' },
): Promise<void> {
  await sequelize.query('INSERT INTO files (id, purpose, name, uploaded_by, storage) VALUES ($1, $2, $3, $4, $5)', {
    bind: [upload.id, upload.purpose, upload.name, upload.uploadedBy, upload.storage],
  });
}

/** Marks an upload whole, with what its content turned out to be. */
export async function completeUpload(
  sequelize: Sequelize,
  id: string,
  content: { type: FileType; size: number; sha256: string },
): Promise<financeV1.StoredFile> {
  const [row] = await sequelize.query<FileRow>(
    `UPDATE files SET complete = true, content_type = $2, size = $3, sha256 = $4 WHERE id = $1 RETURNING ${COLUMNS}`,
    { bind: [id, content.type, content.size, content.sha256], type: QueryTypes.SELECT },
  );
  return toStoredFile(row);
}

export async function deleteFileRows(sequelize: Sequelize, ids: string[]): Promise<void> {
  if (ids.length > 0) await sequelize.query('DELETE FROM files WHERE id = ANY($1::uuid[])', { bind: [ids] });
}

/** Up to 100 uploads no payment named within FILE_LIMITS.unlinkedHours (abandoned ones included). */
export async function expiredUploads(sequelize: Sequelize): Promise<{ id: string }[]> {
  return sequelize.query(
    `SELECT id FROM files WHERE payment_id IS NULL AND created_at < now() - make_interval(hours => $1) LIMIT 100`,
    { bind: [FILE_LIMITS.unlinkedHours], type: QueryTypes.SELECT },
  );
}

/** Each payment's files, in the order the payment named them. */
export async function filesOfPayments(sequelize: Sequelize, paymentIds: string[], transaction?: Transaction) {
  const byPayment = new Map<string, financeV1.StoredFile[]>(paymentIds.map((id) => [id, []]));
  if (paymentIds.length === 0) return byPayment;
  const rows = await sequelize.query<FileRow>(
    `SELECT ${COLUMNS} FROM files WHERE payment_id = ANY($1::uuid[]) ORDER BY payment_id, position`,
    { bind: [paymentIds], type: QueryTypes.SELECT, transaction },
  );
  for (const row of rows) byPayment.get(row.payment_id as string)?.push(toStoredFile(row));
  return byPayment;
}

/** One file of one payment, with where it is stored. */
export async function findPaymentFile(sequelize: Sequelize, paymentId: string, fileId: string) {
  const [row] = await sequelize.query<FileRow>(`SELECT ${COLUMNS} FROM files WHERE id = $1 AND payment_id = $2`, {
    bind: [fileId, paymentId],
    type: QueryTypes.SELECT,
  });
  return row && { file: toStoredFile(row), storage: row.storage };
}

/**
 * Gives the files to a payment, in the order named: each must be a whole payment_proof upload of the same user,
 * not named by any payment yet and not expired. Locked first (FOR UPDATE), so that of two payments naming one
 * file one gets it. Answers the indexes of the ids that are not such files (none: all linked).
 */
export async function linkFiles(
  sequelize: Sequelize,
  paymentId: string,
  fileIds: string[],
  uploadedBy: string,
  transaction: Transaction,
): Promise<number[]> {
  if (fileIds.length === 0) return [];
  const rows = await sequelize.query<{ id: string }>(
    `SELECT id FROM files
      WHERE id = ANY($1::uuid[]) AND uploaded_by = $2 AND purpose = 'payment_proof' AND complete AND payment_id IS NULL
        AND created_at >= now() - make_interval(hours => $3)
      FOR UPDATE`,
    { bind: [fileIds, uploadedBy, FILE_LIMITS.unlinkedHours], type: QueryTypes.SELECT, transaction },
  );
  const usable = new Set(rows.map((row) => row.id));
  const missing = fileIds.flatMap((id, index) => (usable.has(id) ? [] : [index]));
  if (missing.length > 0) return missing;
  await sequelize.query(
    `UPDATE files SET payment_id = $1, position = named.position
       FROM unnest($2::uuid[]) WITH ORDINALITY AS named (id, position) WHERE files.id = named.id`,
    { bind: [paymentId, fileIds], transaction },
  );
  return [];
}
