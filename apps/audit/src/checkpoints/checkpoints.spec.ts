import { createPublicKey, verify } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { metricsRegistry } from '@libs/metrics';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { appendEvent } from '../entries/audit-store';
import { verifyChain } from '../entries/chain-verify';
import { entryHash } from '../entries/entry-hash';
import { ENTRY_COLUMNS, eventOf, type EntryRow } from '../entries/entry-row';
import { testEvent } from '../entries/test-events';
import { migrations } from '../migrations';
import { CheckpointKeys } from './checkpoint-keys';
import { checkpointHead, listCheckpoints } from './checkpoint-store';

describe('signed checkpoints of the chain (PostgreSQL)', () => {
  let db: ScratchDatabase;
  const keys = new CheckpointKeys('the audit service checkpoint secret', '');
  const append = async (count: number) => {
    for (let i = 0; i < count; i += 1) await appendEvent(db.sequelize, testEvent());
  };
  const verdict = () => verifyChain(db.sequelize, keys);

  /**
   * What someone with write access to the audit database can do without the service's key: change an entry, then
   * recompute its hash and every later one, so that the chain is consistent in itself again.
   */
  async function rewrite(sequence: number, after: unknown): Promise<void> {
    await db.sequelize.query('UPDATE audit_entries SET after = $2::jsonb WHERE sequence = $1', { bind: [sequence, JSON.stringify(after)] });
    const rows = await db.sequelize.query<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM audit_entries WHERE sequence >= $1 ORDER BY audit_entries.sequence`, {
      bind: [sequence],
      type: QueryTypes.SELECT,
    });
    let prev = rows[0].prev_hash;
    for (const row of rows) {
      const hash = entryHash(prev, eventOf({ ...row, prev_hash: prev }));
      await db.sequelize.query('UPDATE audit_entries SET prev_hash = $2, hash = $3 WHERE sequence = $1', { bind: [row.sequence, prev, hash] });
      prev = hash;
    }
  }

  beforeEach(async () => {
    db = await createScratchDatabase('audit', migrations);
  });
  afterEach(() => db?.drop());

  it('signs the head once, verifiably with the published key alone, and again only when the chain moved', async () => {
    expect(await checkpointHead(db.sequelize, keys)).toBeUndefined();
    await append(3);
    const first = await checkpointHead(db.sequelize, keys);
    expect(first).toMatchObject({ sequence: '3', keyId: keys.current.keyId });
    expect(await checkpointHead(db.sequelize, keys)).toEqual(first);
    // An outsider's check: the JWK's x and the documented message, nothing of the service's code.
    const published = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keys.current.x }, format: 'jwk' });
    const message = Buffer.from(`audit-checkpoint:v1:${first?.sequence}:${first?.hash}:${first?.signedAt}`);
    expect(verify(null, message, published, Buffer.from(first?.signature ?? '', 'base64url'))).toBe(true);
    expect(verify(null, Buffer.from(`audit-checkpoint:v1:3:${'0'.repeat(64)}:${first?.signedAt}`), published, Buffer.from(first?.signature ?? '', 'base64url'))).toBe(false);

    // Past 9 entries, so that an order by text instead of number would show.
    await append(9);
    expect(await checkpointHead(db.sequelize, keys)).toMatchObject({ sequence: '12' });
    expect((await listCheckpoints(db.sequelize, { limit: 10 })).map((c) => c.sequence)).toEqual(['12', '3']);
    expect(await verdict()).toMatchObject({ intact: true, checked: '12', checkpointsChecked: '2' });
  });

  it('catches a rewritten entry whose later hashes were all recomputed, at the first checkpoint after it', async () => {
    await append(4);
    await checkpointHead(db.sequelize, keys);
    await append(3);
    await rewrite(2, { amount: '1' });
    expect(await verdict()).toMatchObject({ intact: false, firstBreak: { sequence: '4', problem: expect.stringMatching(/rewritten/) } });
    // The chain alone cannot tell, being consistent in itself: without the checkpoint the rewrite passes. So a
    // rewriter who also deletes checkpoints is caught only by copies kept outside (docs/AUDIT.md, "Checkpoints").
    await db.sequelize.query('DELETE FROM audit_checkpoints');
    expect(await verdict()).toMatchObject({ intact: true, checked: '7', checkpointsChecked: '0' });
  });

  it('names the checkpoint a rewrite contradicts, and what it says', async () => {
    await append(4);
    const signed = await checkpointHead(db.sequelize, keys);
    await append(3);
    await rewrite(2, { amount: '1' });
    expect(await verdict()).toMatchObject({
      intact: false,
      checked: '4',
      checkpointsChecked: '0',
      firstBreak: { sequence: '4', problem: expect.stringContaining(`says this entry's hash is ${signed?.hash}`) },
    });
  });

  it('counts what it signs and each kind of break it finds, for alerts', async () => {
    const count = async (name: string, kind?: string) =>
      (await metricsRegistry().getSingleMetric(name)?.get())?.values.find((value) => kind === undefined || value.labels.kind === kind)?.value ?? 0;
    const [signed, contradicted] = [await count('audit_checkpoints_signed_total'), await count('audit_chain_breaks_found_total', 'checkpoint_contradicted')];
    await append(3);
    await checkpointHead(db.sequelize, keys);
    await checkpointHead(db.sequelize, keys);
    await rewrite(1, { amount: '2' });
    await verdict();
    expect(await count('audit_checkpoints_signed_total')).toBe(signed + 1);
    expect(await count('audit_chain_breaks_found_total', 'checkpoint_contradicted')).toBe(contradicted + 1);
  });

  it('catches entries cut from the end, and a forged checkpoint', async () => {
    await append(5);
    await checkpointHead(db.sequelize, keys);
    await db.sequelize.query('DELETE FROM audit_entries WHERE sequence > 3');
    expect(await verdict()).toMatchObject({ intact: false, checked: '3', firstBreak: { sequence: '5', problem: expect.stringMatching(/removed from its end/) } });

    await db.sequelize.query('DELETE FROM audit_checkpoints');
    const forger = new CheckpointKeys('a key the service does not trust', '');
    const [head] = await db.sequelize.query<{ hash: string }>('SELECT hash FROM audit_entries WHERE sequence = 3', { type: QueryTypes.SELECT });
    const signedAt = new Date().toISOString();
    await db.sequelize.query('INSERT INTO audit_checkpoints VALUES (3, $1, $2, $3, $4)', {
      bind: [head.hash, signedAt, keys.current.keyId, forger.sign({ sequence: '3', hash: head.hash, signedAt })],
    });
    expect(await verdict()).toMatchObject({ intact: false, firstBreak: { sequence: '3', problem: expect.stringMatching(/does not verify with any trusted key/) } });
  });

  it('keeps trusting an earlier key named in CHECKPOINT_TRUSTED_KEYS after a rotation', async () => {
    await append(2);
    await checkpointHead(db.sequelize, keys);
    const rotated = new CheckpointKeys('the next checkpoint secret', keys.current.x);
    expect(rotated.all().map((key) => key.keyId)).toEqual([rotated.current.keyId, keys.current.keyId]);
    await append(1);
    await checkpointHead(db.sequelize, rotated);
    expect(await verifyChain(db.sequelize, rotated)).toMatchObject({ intact: true, checkpointsChecked: '2' });
    expect(await verifyChain(db.sequelize, new CheckpointKeys('the next checkpoint secret', ''))).toMatchObject({ intact: false, firstBreak: { sequence: '2' } });
  });
});
