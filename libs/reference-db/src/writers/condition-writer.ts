import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { ConditionRecord, IndicationRecord } from '../records';
import { drugKey } from '../source-ids';
import { rebuildConditionTerms } from './catalogue-terms-writer';
import { catalogueTable } from './table';
import { MissingReferenceError, upsertRecords } from './upsert-records';

const CONDITIONS = catalogueTable<ConditionRecord>({
  table: 'conditions',
  key: 'source_id',
  columns: { source_id: 'text', name: 'text', doid: 'text', description: 'text' },
  nullable: ['doid'],
  keepWhenBlank: ['doid', 'description'],
});

/** Inserts or updates conditions by their source id, and rebuilds their type-ahead terms. */
export async function upsertConditions(
  sequelize: Sequelize,
  conditions: ConditionRecord[],
  transaction: Transaction,
): Promise<void> {
  const written = await upsertRecords(sequelize, CONDITIONS, conditions, transaction);
  await rebuildConditionTerms(sequelize, written.map((row) => row.id), transaction);
}

/**
 * Inserts or updates indications, keyed by condition and drug (DrugBank id,
 * else name). The condition must exist: an unknown one throws MissingReferenceError.
 */
export async function upsertIndications(
  sequelize: Sequelize,
  indications: IndicationRecord[],
  transaction: Transaction,
): Promise<void> {
  const rows = [
    ...new Map(
      indications.map((i) => {
        const row = {
          condition_source_id: i.conditionSourceId,
          drug_key: drugKey(i),
          drug_name: i.drugName,
          drugbank_id: i.drugbankId ?? null,
          type: i.type,
        };
        return [`${row.condition_source_id}\n${row.drug_key}`, row] as const;
      }),
    ).values(),
  ];
  if (rows.length === 0) return;
  const named = [...new Set(rows.map((r) => r.condition_source_id))];
  const known = await sequelize.query<{ source_id: string }>(
    'SELECT source_id FROM conditions WHERE source_id = ANY($1::text[])',
    { bind: [named], type: QueryTypes.SELECT, transaction },
  );
  if (known.length < named.length) {
    const found = new Set(known.map((k) => k.source_id));
    throw new MissingReferenceError('conditions', named.filter((id) => !found.has(id)));
  }
  await sequelize.query(
    `INSERT INTO indications (condition_pk, drug_key, drug_name, drugbank_id, type)
     SELECT c.id, r.drug_key, r.drug_name, r.drugbank_id, r.type
       FROM jsonb_to_recordset($1::jsonb) AS r(condition_source_id text, drug_key text, drug_name text,
                                              drugbank_id text, type text)
       JOIN conditions c ON c.source_id = r.condition_source_id
     ON CONFLICT (condition_pk, drug_key) DO UPDATE
       SET drug_name = excluded.drug_name, drugbank_id = excluded.drugbank_id, type = excluded.type`,
    { bind: [JSON.stringify(rows)], transaction },
  );
}
