import { readConverted } from './delimited';
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

function toIndication(r: Record<(typeof COLUMNS)[number], string>): Indication | string {
  if (!/^DOID:\d+$/.test(r.doid_id)) return `malformed doid_id ${JSON.stringify(r.doid_id)}`;
  if (!/^DB\d{5}$/.test(r.drugbank_id)) return `malformed drugbank_id ${JSON.stringify(r.drugbank_id)}`;
  if (!r.disease || !r.drug) return 'disease and drug names are required';
  if (!['DM', 'SYM', 'NOT'].includes(r.category)) return `category must be DM, SYM or NOT, found ${JSON.stringify(r.category)}`;
  if (!/^\d+$/.test(r.n_curators) || !/^\d+$/.test(r.n_resources)) return 'n_curators and n_resources must be whole numbers';
  return {
    doid: r.doid_id,
    drugbankId: r.drugbank_id,
    disease: r.disease,
    drug: r.drug,
    category: r.category as Indication['category'],
    curators: Number(r.n_curators),
    resources: Number(r.n_resources),
  };
}

/** PharmacotherapyDB indications.tsv: tab-separated with a header. */
export function readIndications(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<Indication>> {
  return readConverted(path, COLUMNS, { ...options, delimiter: '\t', quoted: false }, toIndication);
}
