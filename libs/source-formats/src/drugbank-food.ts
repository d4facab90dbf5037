import { readDelimited } from './delimited';
import type { ParsedRow, ReadOptions } from './text-lines';

/** One DrugBank drug–food advice. */
export interface FoodAdvice {
  drugbankId: string;
  drugName: string;
  advice: string;
}

/** The DrugBank food-interaction CSV: no header; DrugBank id, drug name, advice (quoted when it holds a comma). */
export async function* readDrugbankFood(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<FoodAdvice>> {
  for await (const { line, fields } of readDelimited(path, { ...options, delimiter: ',', quoted: true })) {
    const [drugbankId, drugName, advice] = fields.map((field) => field.trim());
    if (fields.length !== 3) {
      yield { line, error: `expected 3 fields (DrugBank id, drug name, advice), found ${fields.length}` };
    } else if (!/^DB\d{5}$/.test(drugbankId)) {
      yield { line, error: `malformed DrugBank id ${JSON.stringify(drugbankId)}` };
    } else if (!drugName || !advice) {
      yield { line, error: 'drug name and advice are required' };
    } else {
      yield { line, record: { drugbankId, drugName, advice } };
    }
  }
}
