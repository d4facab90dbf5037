import type { Sequelize } from 'sequelize';
import { MEMORY_BUDGETS, type auditV1 } from '@libs/contracts';
import type { CheckpointKeys } from '../checkpoints/checkpoint-keys';
import { checkpointsBetween, firstCheckpointAfter } from '../checkpoints/checkpoint-store';
import { chainBreaksFound, type BreakKind } from './chain-metrics';
import { entryHash, GENESIS_HASH } from './entry-hash';
import { entriesWithin } from './entries-within';
import { eventOf, type EntryRow } from './entry-row';

/** Entries read at once, at most: fewer when their bodies would pass the batch's byte budget. */
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
 * Why a signed checkpoint disagrees with the entry at its sequence, or undefined when it agrees. A chain rewritten
 * with every later hash recomputed is consistent in itself; only a signature made before the rewrite, which the
 * rewriter cannot make again without the service's key, tells.
 */
function checkpointProblem(row: EntryRow, checkpoint: auditV1.Checkpoint, keys: CheckpointKeys): Found | undefined {
  if (!keys.verifies(checkpoint)) {
    return { kind: 'checkpoint_forged', problem: `the checkpoint of this entry (key ${checkpoint.keyId}) does not verify with any trusted key (it was altered or forged)` };
  }
  if (checkpoint.hash !== row.hash) {
    return {
      kind: 'checkpoint_contradicted',
      problem: `a checkpoint signed at ${checkpoint.signedAt} says this entry's hash is ${checkpoint.hash}, but it is ${row.hash} (this entry or one before it was rewritten, and the hashes after it recomputed)`,
    };
  }
  return undefined;
}

interface Found {
  kind: BreakKind;
  problem: string;
}

function broken(checked: number, checkpointsChecked: number, at: { sequence: string; eventId: string }, found: Found): auditV1.VerifyChainResponse {
  chainBreaksFound.inc({ kind: found.kind });
  return {
    intact: false,
    checked: String(checked),
    lastHash: '',
    firstBreak: { ...at, problem: found.problem },
    checkpointsChecked: String(checkpointsChecked),
  };
}

/**
 * Walks the whole chain in sequence order, in batches bounded by count and bytes (memory stays flat however large
 * the entries), recomputing every hash and checking every signed checkpoint
 * against the entry it names. Stops at the first entry that does not fit: everything after it is suspect anyway. A
 * checkpoint past the last entry means entries were cut from the end.
 */
export async function verifyChain(sequelize: Sequelize, keys: CheckpointKeys): Promise<auditV1.VerifyChainResponse> {
  let expectedPrev = GENESIS_HASH;
  let after = '0';
  let checked = 0;
  let checkpointsChecked = 0;
  for (;;) {
    const { rows, cut } = await entriesWithin(sequelize, {
      where: ['sequence > $1::bigint'],
      bind: [after],
      order: 'ASC',
      limit: BATCH,
      budgetBytes: MEMORY_BUDGETS.verifyBatchBytes,
    });
    const last = rows.at(-1)?.sequence;
    const checkpoints = new Map(last === undefined ? [] : (await checkpointsBetween(sequelize, after, last)).map((checkpoint) => [checkpoint.sequence, checkpoint]));
    for (const row of rows) {
      checked += 1;
      const checkpoint = checkpoints.get(row.sequence);
      const entryProblem = problemOf(row, expectedPrev);
      const found = entryProblem ? { kind: 'entry' as const, problem: entryProblem } : checkpoint && checkpointProblem(row, checkpoint, keys);
      if (found) return broken(checked, checkpointsChecked, { sequence: row.sequence, eventId: row.event_id }, found);
      if (checkpoint) checkpointsChecked += 1;
      expectedPrev = row.hash;
    }
    if (last !== undefined) after = last;
    if (!cut && rows.length < BATCH) break;
  }
  const beyond = await firstCheckpointAfter(sequelize, after);
  if (beyond) {
    const found: Found = keys.verifies(beyond)
      ? { kind: 'end_cut', problem: `a checkpoint signed at ${beyond.signedAt} names entry ${beyond.sequence}, but the chain ends at ${after} (entries were removed from its end)` }
      : { kind: 'checkpoint_forged', problem: `a checkpoint past the chain's end (entry ${beyond.sequence}) does not verify with any trusted key (it was forged)` };
    return broken(checked, checkpointsChecked, { sequence: beyond.sequence, eventId: '' }, found);
  }
  return { intact: true, checked: String(checked), lastHash: checked > 0 ? expectedPrev : '', checkpointsChecked: String(checkpointsChecked) };
}
