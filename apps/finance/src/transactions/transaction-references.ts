import type { Reference } from '../validation/references';

/** The rows a transaction points at; '' ids (absent) are skipped by checkReferences. */
export function referencesOf(
  input: { studentId: string; categoryId: string; accountId: string },
  at = '',
): Reference[] {
  return [
    { table: 'accounts', id: input.accountId, field: `${at}accountId` },
    { table: 'categories', id: input.categoryId, field: `${at}categoryId` },
    { table: 'students', id: input.studentId, field: `${at}studentId` },
  ];
}
