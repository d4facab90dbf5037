import { readWithHeader } from './delimited';
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

/** The WHO ATC classification CSV (header atc_code, atc_name, ddd, uom, adm_r, note; `NA` is empty). */
export async function* readWhoAtc(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<AtcRow>> {
  for await (const row of readWithHeader(path, COLUMNS, { ...options, delimiter: ',', quoted: true })) {
    if ('error' in row) {
      yield row;
      continue;
    }
    const { atc_code: code, atc_name: name, ddd, uom, adm_r: route, note } = row.record;
    if (!CODE.test(code)) {
      yield { line: row.line, error: `malformed ATC code ${JSON.stringify(code)}` };
    } else if (!value(name)) {
      yield { line: row.line, error: `ATC code ${code} has no name` };
    } else {
      const level = LEVEL_BY_LENGTH[code.length];
      yield { line: row.line, record: { code, name, level, ddd: value(ddd), unit: value(uom), route: value(route), note: value(note) } };
    }
  }
}
