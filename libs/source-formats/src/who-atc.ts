import { readConverted } from './delimited';
import type { ParsedRow, ReadOptions } from './text-lines';

/** One row of the WHO ATC/DDD CSV. A code repeats once per defined daily dose. */
export interface AtcRow {
  code: string;
  name: string;
  /** 1 (anatomical group) to 5 (chemical substance), from the code's length 1/3/4/5/7. */
  level: number;
  ddd: string;
  unit: string;
  route: string;
  note: string;
}

const COLUMNS = ['atc_code', 'atc_name', 'ddd', 'uom', 'adm_r', 'note'] as const;
const LEVEL_BY_LENGTH: Record<number, number> = { 1: 1, 3: 2, 4: 3, 5: 4, 7: 5 };
const CODE = /^[A-Z](\d\d([A-Z]([A-Z](\d\d)?)?)?)?$/;
const value = (field: string) => (field === 'NA' ? '' : field);

function toRow(r: Record<(typeof COLUMNS)[number], string>): AtcRow | string {
  if (!CODE.test(r.atc_code)) return `malformed ATC code ${JSON.stringify(r.atc_code)}`;
  if (!value(r.atc_name)) return `ATC code ${r.atc_code} has no name`;
  return {
    code: r.atc_code,
    name: r.atc_name,
    level: LEVEL_BY_LENGTH[r.atc_code.length],
    ddd: value(r.ddd),
    unit: value(r.uom),
    route: value(r.adm_r),
    note: value(r.note),
  };
}

/** The WHO ATC classification CSV (header atc_code, atc_name, ddd, uom, adm_r, note; `NA` is empty). */
export function readWhoAtc(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<AtcRow>> {
  return readConverted(path, COLUMNS, { ...options, delimiter: ',', quoted: true }, toRow);
}
