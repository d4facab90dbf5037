import { createHash } from 'node:crypto';

/**
 * The source-id rules, in one place so that the default dataset and every
 * importer give the same thing the same id (and an import updates it instead
 * of adding a twin).
 */

/** Lower-cased, trimmed, inner whitespace collapsed. */
export const normaliseName = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** A drug is its DrugBank id when known (e.g. "DB01048"), else `name:<normalised name>`. */
export const drugSourceId = (drug: { name: string; drugbankId?: string }): string =>
  drug.drugbankId ? drug.drugbankId : `name:${normaliseName(drug.name)}`;

/** A lab test is `loinc:<code>` when it has a LOINC code, else `name:<normalised name>`. */
export const labTestSourceId = (test: { name: string; loinc?: string }): string =>
  test.loinc ? `loinc:${test.loinc}` : `name:${normaliseName(test.name)}`;

/** A condition is its Disease Ontology id when known (e.g. "DOID:9352"), else `name:<normalised name>`. */
export const conditionSourceId = (condition: { name: string; doid?: string }): string =>
  condition.doid ? condition.doid : `name:${normaliseName(condition.name)}`;

/** A Drugs@FDA product: `fda:<ApplNo>-<ProductNo>`, e.g. "fda:000004-004". */
export const fdaProductSourceId = (applNo: string, productNo: string): string => `fda:${applNo}-${productNo}`;

/** A food interaction: the drug's source id and a digest of what is said about which food. */
export function foodInteractionSourceId(interaction: {
  drugName: string;
  drugbankId?: string;
  food?: string;
  advice: string;
}): string {
  const digest = createHash('sha256')
    .update(`${normaliseName(interaction.food ?? '')}\n${interaction.advice.trim()}`)
    .digest('hex')
    .slice(0, 16);
  return `${drugSourceId({ name: interaction.drugName, drugbankId: interaction.drugbankId })}:${digest}`;
}

/** The drug an indication or interaction names: its DrugBank id, else its normalised name. */
export const drugKey = (drug: { drugName: string; drugbankId?: string }): string =>
  drugSourceId({ name: drug.drugName, drugbankId: drug.drugbankId });

const ATC_LEVEL_BY_LENGTH: Record<number, number> = { 1: 1, 3: 2, 4: 3, 5: 4, 7: 5 };
const ATC_CODE = /^[A-Z](\d\d([A-Z]([A-Z](\d\d)?)?)?)?$/;

/** The ATC level (1-5) of a well-formed code such as "N02BE01", else undefined. */
export function atcLevel(code: string): number | undefined {
  return ATC_CODE.test(code) ? ATC_LEVEL_BY_LENGTH[code.length] : undefined;
}

const PARENT_LENGTH: Record<number, number> = { 3: 1, 4: 3, 5: 4, 7: 5 };

/** The code of the group one level up ("N02BE01" → "N02BE"), or undefined for a level 1 group. */
export function atcParent(code: string): string | undefined {
  const length = PARENT_LENGTH[code.length];
  return length === undefined ? undefined : code.slice(0, length);
}
