import { drugSourceId, fdaProductSourceId, upsertDosages, upsertDrugs, type DrugRecord } from '@libs/reference-db';
import { readDrugsAtFdaProducts, type FdaProduct } from '@libs/source-formats';
import type { ImportSource } from '../import-source';

/** The state of matter a clinician would expect from a Drugs@FDA dosage form. */
export function physicalForm(form: string): string {
  const f = form.toUpperCase();
  if (/AEROSOL|GAS|INHALANT|SPRAY/.test(f)) return 'gas';
  if (/POWDER|GRANULE/.test(f)) return 'powder';
  if (/CREAM|OINTMENT|GEL|PASTE|LOTION|EMULSION/.test(f)) return 'semi-solid';
  if (/SOLUTION|SUSPENSION|SYRUP|ELIXIR|INJECT|LIQUID|DROPS|CONCENTRATE|TINCTURE/.test(f)) return 'liquid';
  if (/TABLET|CAPSULE|PILL|LOZENGE|SUPPOSITORY|TROCHE|FILM|PATCH|IMPLANT|INSERT|PELLET|GUM|BAR|RING|LENS/.test(f)) return 'solid';
  return '';
}

/** A product is a dosage of its active ingredient: dosages are looked up by drug, across brands. */
const drugOf = (product: FdaProduct): DrugRecord => ({
  sourceId: drugSourceId({ name: product.activeIngredient }),
  name: product.activeIngredient,
});

export const drugsAtFdaSource: ImportSource<FdaProduct> = {
  name: 'drugsatfda',
  describe: 'Drugs@FDA Products.txt, with Applications.txt, MarketingStatus.txt and MarketingStatus_Lookup.txt beside it',
  read: readDrugsAtFdaProducts,
  key: (product) => fdaProductSourceId(product.applNo, product.productNo),
  async write(sequelize, products, transaction) {
    await upsertDrugs(sequelize, products.map(drugOf), transaction);
    await upsertDosages(
      sequelize,
      products.map((product) => ({
        sourceId: fdaProductSourceId(product.applNo, product.productNo),
        drugSourceId: drugOf(product).sourceId,
        form: product.form,
        physicalForm: physicalForm(product.form),
        adminMethod: product.route,
        strength: product.strength.split(';').map((s) => s.trim()).join('; '),
        marketingStatus: product.marketingStatus || undefined,
        brandName: product.drugName || undefined,
      })),
      transaction,
    );
  },
};
