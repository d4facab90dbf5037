/**
 * The datasets a bulk download serves (docs/REFERENCE.md, "Bulk download"), by the name in its path: the gateway
 * validates and documents the path with it, and the reference service answers their versions (the ETag).
 */
export const BULK_DATASETS = ['diseases', 'drugs', 'labs', 'categories', 'conditions', 'premises', 'dosages', 'food-interactions'] as const;
export type BulkDataset = (typeof BULK_DATASETS)[number];

export const isBulkDataset = (name: string): name is BulkDataset => (BULK_DATASETS as readonly string[]).includes(name);
