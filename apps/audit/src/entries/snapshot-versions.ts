/**
 * How version 1 of `before`/`after` (events without `schemaVersion`) differs from version 2, per
 * entity type. Version 1 held finance's gRPC message as JSON: 64-bit amounts as strings, "" for an
 * absent optional value, the category's and account's names beside their ids. This is a record of
 * what was written then, so it never follows later changes to the entities.
 */
interface Version1Differences {
  /** Integers written as strings. */
  amounts?: string[];
  /** Optional values written as "" when absent. */
  optional?: string[];
  /** `{ id, name }` objects written as two fields: [object, id field, name field]. */
  named?: [string, string, string][];
  /** Fields version 2 does not have. */
  dropped?: string[];
}

const VERSION_1: Record<string, Version1Differences> = {
  transaction: {
    amounts: ['amount'],
    optional: ['studentId'],
    named: [
      ['category', 'categoryId', 'categoryName'],
      ['account', 'accountId', 'accountName'],
    ],
  },
  payment: { amounts: ['amount'], optional: ['outcome', 'processedBy', 'processedAt', 'resolvedBy', 'resolvedAt'] },
  account: { optional: ['userId'] },
  category: {},
  // Unversioned records carried a `version` of 0 in version 1.
  registration_number: { dropped: ['version'] },
  student: { optional: ['userId', 'currentProgramLevelId'] },
  financial_statement: { amounts: ['debit', 'credit', 'balance'], optional: ['semesterId'] },
};

const INTEGER = /^-?\d{1,18}$/;

function upgradeRecord(record: Record<string, unknown>, differences: Version1Differences): Record<string, unknown> {
  const upgraded: Record<string, unknown> = { ...record };
  for (const field of differences.amounts ?? []) {
    const value = upgraded[field];
    if (typeof value === 'string' && INTEGER.test(value)) upgraded[field] = Number(value);
  }
  for (const field of differences.optional ?? []) {
    if (upgraded[field] === '') upgraded[field] = null;
  }
  for (const [object, idField, nameField] of differences.named ?? []) {
    if (nameField in upgraded) {
      upgraded[object] = { id: upgraded[idField], name: upgraded[nameField] };
      delete upgraded[nameField];
    }
  }
  for (const field of differences.dropped ?? []) delete upgraded[field];
  return upgraded;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Fields an entity gained after version 1, with the value their absence meant: a transaction, payment or statement
 * line stored before reversals existed was neither reversed nor a reversal (null), and a payment stored before
 * attachments had no files ([]). A version-1 entry is converted
 * anyway, so it is shown with them; entries of later versions stay as stored (their hash covers what was stored).
 */
const ADDED_SINCE: Record<string, Record<string, unknown>> = {
  transaction: { reversalOf: null, reversedBy: null },
  payment: { reversedBy: null, reversedAt: null, reversalReason: null, files: [] },
  financial_statement: { reversalOf: null },
};

function withAddedFields(record: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const missing = Object.entries(fields).filter(([field]) => !(field in record));
  return missing.length === 0 ? record : { ...record, ...Object.fromEntries(missing) };
}

/**
 * A stored `before`/`after` in the current shape of its entity (AUDITED_ENTITIES), whatever version
 * stored it. Only what is shown changes: the stored entry and its hash stay as they were, so /verify
 * checks what was stored. What version 1 never recorded stays absent (a bulk create's items had no
 * names, timestamps or version); anything not recognised is shown as stored.
 */
export function currentShape(entityType: string, schemaVersion: number | undefined, snapshot: unknown): unknown {
  // Versions 2 and up (AUDIT_SCHEMA_VERSION) are shown exactly as stored, so that a client can recompute the hash: 3
  // only writes null where 2 wrote "" for empty text, and 4 adds subjects beside the snapshots. A field an entity
  // gained since (ADDED_SINCE) is absent from the entries stored before it.
  const differences = VERSION_1[entityType];
  if (schemaVersion !== undefined || differences === undefined) return snapshot;
  const added = ADDED_SINCE[entityType] ?? {};
  const upgrade = (item: unknown) => {
    if (!isRecord(item)) return item;
    const upgraded = upgradeRecord(item, differences);
    // A version-1 bulk create's items never held a record's whole shape: nothing is added to them.
    return 'id' in upgraded && 'createdAt' in upgraded ? withAddedFields(upgraded, added) : upgraded;
  };
  return Array.isArray(snapshot) ? snapshot.map(upgrade) : upgrade(snapshot);
}
