/**
 * The reference database: its schema and the writers that fill it. Shared by
 * the reference service (default dataset) and the import tool, which is how
 * data enters this read-only service.
 */
export { migrations } from './migrations';
export { upsertDiseases } from './writers/disease-writer';
