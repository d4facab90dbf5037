import { QueryTypes, type Sequelize } from 'sequelize';
import type { auditV1 } from '@libs/contracts';
import { entryHash, GENESIS_HASH } from './entry-hash';
import { ENTRY_COLUMNS, eventOf, type EntryRow } from './entry-row';

const BATCH = 2_000;

/** Why a row does not fit the chain, or undefined when it does. */
function problemOf(row: EntryRow, expectedPrev: string): string | undefined {
  if (row.prev_hash !== expectedPrev) {
    return expectedPrev === GENESIS_HASH
      ? `prevHash is ${row.prev_hash} but the first entry must have the genesis hash ${GENESIS_HASH}`
      : `prevHash is ${row.prev_hash} but the entry before it has hash ${expectedPrev} (an entry was removed, inserted or altered before this one)`;
  }
  const recomputed = entryHash(row.prev_hash, eventOf(row));
  if (row.hash !== recomputed) {
    return `stored hash is ${row.hash} but the entry's content hashes to ${recomputed} (the entry was altered)`;
  }
  return undefined;
}

/**
 * Walks the whole chain in sequence order, in batches, recomputing every hash.
 * Stops at the first entry that does not fit: everything after it is suspect anyway.
 */
export async function verifyChain(sequelize: Sequelize): Promise<auditV1.VerifyChainResponse> {
  let expectedPrev = GENESIS_HASH;
  let after = '0';
  let checked = 0;
  for (;;) {
    const rows = await sequelize.query<EntryRow>(
      `SELECT ${ENTRY_COLUMNS} FROM audit_entries WHERE sequence > $1::bigint ORDER BY audit_entries.sequence LIMIT $2`,
      { bind: [after, BATCH], type: QueryTypes.SELECT },
    );
    for (const row of rows) {
      checked += 1;
      const problem = problemOf(row, expectedPrev);
      if (problem) {
        return {
          intact: false,
          checked: String(checked),
          lastHash: '',
          firstBreak: { sequence: row.sequence, eventId: row.event_id, problem },
        };
      }
      expectedPrev = row.hash;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1].sequence;
  }
  return { intact: true, checked: String(checked), lastHash: checked > 0 ? expectedPrev : '' };
}
