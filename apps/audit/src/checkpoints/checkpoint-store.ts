import { QueryTypes, type Sequelize } from 'sequelize';
import type { auditV1 } from '@libs/contracts';
import { checkpointsSigned } from '../entries/chain-metrics';
import type { CheckpointKeys } from './checkpoint-keys';

interface CheckpointRow {
  sequence: string;
  hash: string;
  signed_at: Date;
  key_id: string;
  signature: string;
}

const toCheckpoint = (row: CheckpointRow): auditV1.Checkpoint => ({
  sequence: row.sequence,
  hash: row.hash,
  signedAt: row.signed_at.toISOString(),
  keyId: row.key_id,
  signature: row.signature,
});

// The output column `sequence` is text: ORDER BY must name the table's column to sort by number.
const COLUMNS = 'sequence::text AS sequence, hash, signed_at, key_id, signature';

/**
 * Signs the chain's head unless it is signed already, and returns that head's checkpoint (undefined while the chain
 * is empty). Any instance may call it at any time: the first to sign a sequence keeps it (ON CONFLICT), so the answer
 * is the same checkpoint for everyone, and asking again without a new entry signs nothing new.
 */
export async function checkpointHead(sequelize: Sequelize, keys: CheckpointKeys): Promise<auditV1.Checkpoint | undefined> {
  const [head] = await sequelize.query<{ sequence: string; hash: string }>(
    'SELECT sequence::text AS sequence, hash FROM audit_entries ORDER BY audit_entries.sequence DESC LIMIT 1',
    { type: QueryTypes.SELECT },
  );
  if (!head) return undefined;
  // Milliseconds only: the text signed is the text answered, and PostgreSQL keeps microseconds.
  const signedAt = new Date().toISOString();
  const signature = keys.sign({ ...head, signedAt });
  const [inserted] = await sequelize.query<CheckpointRow>(
    `INSERT INTO audit_checkpoints (sequence, hash, signed_at, key_id, signature) VALUES ($1::bigint, $2, $3, $4, $5)
       ON CONFLICT (sequence) DO NOTHING RETURNING ${COLUMNS}`,
    { bind: [head.sequence, head.hash, signedAt, keys.current.keyId, signature], type: QueryTypes.SELECT },
  );
  if (inserted) {
    checkpointsSigned.inc();
    return toCheckpoint(inserted);
  }
  // Signed already (by this instance earlier, or another): that checkpoint is the head's.
  const [row] = await sequelize.query<CheckpointRow>(`SELECT ${COLUMNS} FROM audit_checkpoints WHERE sequence = $1::bigint`, {
    bind: [head.sequence],
    type: QueryTypes.SELECT,
  });
  return toCheckpoint(row);
}

/** Checkpoints newest first, after a sequence (exclusive) when paging on. */
export async function listCheckpoints(sequelize: Sequelize, options: { limit: number; beforeSequence?: string }): Promise<auditV1.Checkpoint[]> {
  const rows = await sequelize.query<CheckpointRow>(
    `SELECT ${COLUMNS} FROM audit_checkpoints WHERE ($1::bigint IS NULL OR sequence < $1::bigint) ORDER BY audit_checkpoints.sequence DESC LIMIT $2`,
    { bind: [options.beforeSequence ?? null, options.limit], type: QueryTypes.SELECT },
  );
  return rows.map(toCheckpoint);
}

/** The checkpoints of sequences in (after, upTo], oldest first: those of one batch of the verification walk. */
export async function checkpointsBetween(sequelize: Sequelize, after: string, upTo: string): Promise<auditV1.Checkpoint[]> {
  const rows = await sequelize.query<CheckpointRow>(
    `SELECT ${COLUMNS} FROM audit_checkpoints WHERE sequence > $1::bigint AND sequence <= $2::bigint ORDER BY audit_checkpoints.sequence`,
    { bind: [after, upTo], type: QueryTypes.SELECT },
  );
  return rows.map(toCheckpoint);
}

/** The first checkpoint past a sequence: after the walk's last entry, it means entries were cut from the chain's end. */
export async function firstCheckpointAfter(sequelize: Sequelize, sequence: string): Promise<auditV1.Checkpoint | undefined> {
  const [row] = await sequelize.query<CheckpointRow>(`SELECT ${COLUMNS} FROM audit_checkpoints WHERE sequence > $1::bigint ORDER BY audit_checkpoints.sequence LIMIT 1`, {
    bind: [sequence],
    type: QueryTypes.SELECT,
  });
  return row && toCheckpoint(row);
}
