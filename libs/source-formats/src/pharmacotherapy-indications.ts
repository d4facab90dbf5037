import { readWithHeader } from './delimited';
import type { ParsedRow, ReadOptions } from './text-lines';

/** One PharmacotherapyDB indication (indications.tsv). */
export interface Indication {
  doid: string;
  drugbankId: string;
  disease: string;
  drug: string;
  /** DM: disease modifying; SYM: symptomatic; NOT: not indicated. */
  category: 'DM' | 'SYM' | 'NOT';
  curators: number;
  resources: number;
}

const COLUMNS = ['doid_id', 'drugbank_id', 'disease', 'drug', 'category', 'n_curators', 'n_resources'] as const;

/** PharmacotherapyDB indications.tsv: tab-separated with a header. */
export async function* readIndications(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<Indication>> {
  for await (const row of readWithHeader(path, COLUMNS, { ...options, delimiter: '\t', quoted: false })) {
    if ('error' in row) {
      yield row;
      continue;
    }
    const r = row.record;
    const problem = !/^DOID:\d+$/.test(r.doid_id)
      ? `malformed doid_id ${JSON.stringify(r.doid_id)}`
      : !/^DB\d{5}$/.test(r.drugbank_id)
        ? `malformed drugbank_id ${JSON.stringify(r.drugbank_id)}`
        : !r.disease || !r.drug
          ? 'disease and drug names are required'
          : !['DM', 'SYM', 'NOT'].includes(r.category)
            ? `category must be DM, SYM or NOT, found ${JSON.stringify(r.category)}`
            : !/^\d+$/.test(r.n_curators) || !/^\d+$/.test(r.n_resources)
              ? 'n_curators and n_resources must be whole numbers'
              : undefined;
    if (problem) {
      yield { line: row.line, error: problem };
      continue;
    }
    yield {
      line: row.line,
      record: {
        doid: r.doid_id,
        drugbankId: r.drugbank_id,
        disease: r.disease,
        drug: r.drug,
        category: r.category as Indication['category'],
        curators: Number(r.n_curators),
        resources: Number(r.n_resources),
      },
    };
  }
}
