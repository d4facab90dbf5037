import { upsertDrugCategories } from '@libs/reference-db';
import { readWhoAtc, type AtcRow } from '@libs/source-formats';
import type { ImportSource } from '../import-source';

/** The defined daily doses of the file are not stored: the categories are the ATC tree. */
export const atcSource: ImportSource<AtcRow> = {
  name: 'atc',
  describe: 'WHO ATC classification CSV (atc_code, atc_name, ddd, uom, adm_r, note)',
  read: readWhoAtc,
  key: (row) => row.code,
  write: (sequelize, rows, transaction) =>
    upsertDrugCategories(sequelize, rows.map(({ code, name }) => ({ code, name })), transaction),
};
