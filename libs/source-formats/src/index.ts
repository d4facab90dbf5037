export { readCtdDiseases } from './ctd-diseases';
export { readConverted, readDelimited, readWithHeader, type DelimitedOptions } from './delimited';
export { readDrugsAtFdaProducts, repairProductFields, type FdaProduct } from './drugs-at-fda';
export { readWhoAtc, type AtcRow } from './who-atc';
export { readIndications, type Indication } from './pharmacotherapy-indications';
export { readDrugbankFood, type FoodAdvice } from './drugbank-food';
export { readLabTestsCsv, LAB_TEST_COLUMNS, type LabTestRow } from './lab-tests-csv';
export { readPremisesCsv, PREMISE_COLUMNS, PREMISE_TYPES, type PremiseRow } from './premises-csv';
export { openTextLines, openTextStream, type ParsedRow, type ReadOptions } from './text-lines';
