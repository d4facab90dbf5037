import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { readDelimited, readWithHeader } from './delimited';
import type { ParsedRow, ReadOptions } from './text-lines';

/** One Drugs@FDA product (Products.txt), with its application and marketing status from the files beside it. */
export interface FdaProduct {
  applNo: string;
  productNo: string;
  /** Dosage form, e.g. "TABLET" (Form before ";"). */
  form: string;
  /** Route, e.g. "ORAL" (Form after ";"). */
  route: string;
  /** Strength; several ingredients are separated by ";". */
  strength: string;
  referenceDrug: boolean;
  drugName: string;
  activeIngredient: string;
  referenceStandard: boolean;
  applType: string;
  sponsorName: string;
  /** From MarketingStatus.txt and its lookup, e.g. "Prescription"; empty when not listed. */
  marketingStatus: string;
}

const COLUMNS = ['ApplNo', 'ProductNo', 'Form', 'Strength', 'ReferenceDrug', 'DrugName', 'ActiveIngredient', 'ReferenceStandard'];
const TSV = { delimiter: '\t', quoted: false } as const;

const wellFormed = (f: string[]) =>
  f.length === COLUMNS.length &&
  /^\d{6}$/.test(f[0]) &&
  /^\d{3}$/.test(f[1]) &&
  /^\d$/.test(f[4]) && // 0, 1, or 2 on biologics
  /^[01]?$/.test(f[7]);

/**
 * A few published rows carry a stray tab, giving 9 fields: a trailing empty
 * one, or one inside a field ("DRUG-ELUTING CONTACT LENS\t;OPHTHALMIC"). The
 * repair drops the empty field or joins the one pair of neighbours that makes
 * the row well-formed; anything else is left for rejection.
 */
export function repairProductFields(fields: string[]): string[] | undefined {
  if (wellFormed(fields)) return fields;
  if (fields.length !== COLUMNS.length + 1) return undefined;
  if (fields[fields.length - 1] === '' && wellFormed(fields.slice(0, -1))) return fields.slice(0, -1);
  const repairs = fields
    .slice(0, -1)
    .map((_, i) => [...fields.slice(0, i), fields[i] + fields[i + 1], ...fields.slice(i + 2)])
    .filter(wellFormed);
  // Form is FORM;ROUTE in all but a few old rows, so a join that restores the ";" is the likely one.
  const withRoute = repairs.filter((f) => f[2].includes(';'));
  const chosen = withRoute.length > 0 ? withRoute : repairs;
  return chosen.length === 1 ? chosen[0] : undefined;
}

function sideFile(productsPath: string, name: string): string {
  const path = join(dirname(productsPath), name);
  if (!existsSync(path)) throw new Error(`${path} is missing: Drugs@FDA Products.txt needs ${name} beside it`);
  return path;
}

/** The side files are small (one row per application or product): read whole into maps. */
async function readSideFiles(productsPath: string) {
  const applications = new Map<string, { applType: string; sponsorName: string }>();
  for await (const row of readWithHeader(sideFile(productsPath, 'Applications.txt'), ['ApplNo', 'ApplType', 'ApplPublicNotes', 'SponsorName'], TSV)) {
    if ('record' in row) applications.set(row.record.ApplNo, { applType: row.record.ApplType, sponsorName: row.record.SponsorName });
  }
  const statusNames = new Map<string, string>();
  for await (const row of readWithHeader(sideFile(productsPath, 'MarketingStatus_Lookup.txt'), ['MarketingStatusID', 'MarketingStatusDescription'], TSV)) {
    if ('record' in row) statusNames.set(row.record.MarketingStatusID, row.record.MarketingStatusDescription);
  }
  const statuses = new Map<string, string>();
  for await (const row of readWithHeader(sideFile(productsPath, 'MarketingStatus.txt'), ['MarketingStatusID', 'ApplNo', 'ProductNo'], TSV)) {
    if ('record' in row) {
      statuses.set(`${row.record.ApplNo}-${row.record.ProductNo}`, statusNames.get(row.record.MarketingStatusID) ?? '');
    }
  }
  return { applications, statuses };
}

/** Drugs@FDA products from Products.txt (tab-separated, with a header), streamed. */
export async function* readDrugsAtFdaProducts(path: string, options: ReadOptions = {}): AsyncGenerator<ParsedRow<FdaProduct>> {
  const { applications, statuses } = await readSideFiles(path);
  let header = true;
  for await (const { line, fields: raw } of readDelimited(path, { ...options, ...TSV })) {
    if (header) {
      header = false;
      if (raw.join('\t') !== COLUMNS.join('\t')) throw new Error(`${path}:${line}: expected the header ${COLUMNS.join(', ')}`);
      continue;
    }
    const fields = repairProductFields(raw.map((field) => field.trim()));
    if (!fields) {
      yield { line, error: `expected ${COLUMNS.length} tab-separated fields with a 6-digit ApplNo and 3-digit ProductNo, found ${raw.length} fields` };
      continue;
    }
    const [applNo, productNo, formRoute, strength, referenceDrug, drugName, activeIngredient, referenceStandard] = fields;
    const [form, ...route] = formRoute.split(';');
    const application = applications.get(applNo);
    yield {
      line,
      record: {
        applNo,
        productNo,
        form: form.trim(),
        route: route.join(';').trim(),
        strength,
        referenceDrug: referenceDrug === '1',
        drugName,
        activeIngredient,
        referenceStandard: referenceStandard === '1',
        applType: application?.applType ?? '',
        sponsorName: application?.sponsorName ?? '',
        marketingStatus: statuses.get(`${applNo}-${productNo}`) ?? '',
      },
    };
  }
}
