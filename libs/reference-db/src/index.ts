/**
 * The reference database: its schema and the writers that fill it. Shared by
 * the reference service (default dataset) and the import tool, which is how
 * data enters this read-only service.
 */
export { migrations } from './migrations';
export { upsertDiseases } from './writers/disease-writer';
export { upsertLabTests } from './writers/lab-test-writer';
export { upsertDrugs } from './writers/drug-writer';
export { upsertDosages } from './writers/dosage-writer';
export { upsertDrugCategories, InvalidAtcCodeError } from './writers/drug-category-writer';
export { upsertConditions, upsertIndications } from './writers/condition-writer';
export { upsertPremises } from './writers/premise-writer';
export { upsertFoodInteractions } from './writers/food-interaction-writer';
export { MissingReferenceError } from './writers/upsert-records';
export * from './records';
export { drugTerms, foldText, withoutSalt } from './drug-terms';
export { conditionTerms, labTestTerms } from './catalogue-terms';
export {
  atcLevel,
  atcParent,
  conditionSourceId,
  drugSourceId,
  fdaProductSourceId,
  foodInteractionSourceId,
  labTestSourceId,
  normaliseName,
} from './source-ids';
export * from './search';
