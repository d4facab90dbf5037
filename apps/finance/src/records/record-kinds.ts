import type { EntityMessage } from '@libs/contracts';

interface Stamped {
  id: string;
  created_at: Date;
  updated_at: Date;
  version?: number;
}

export type RecordEntityType = 'account' | 'category' | 'registration_number' | 'student';

/** A supporting finance record (account, category, registration number, student) and how it maps to its message. */
export interface RecordKind<E extends RecordEntityType> {
  table: 'accounts' | 'categories' | 'registration_numbers' | 'students';
  /** Name in messages, errors and audit events. */
  entityType: E;
  columns: string[];
  /** Whether rows carry a version (and so can be updated with If-Match). */
  versioned: boolean;
  /** Unique constraint → the field a duplicate value is reported on. */
  unique: Record<string, string>;
  toMessage(row: Record<string, unknown>): EntityMessage<E>;
}

function stamps(row: Stamped) {
  return {
    id: row.id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    // Unversioned kinds have no version field in their message; the encoder drops it.
    version: row.version ?? 0,
  };
}

const text = (value: unknown) => (value ?? '') as string;

export const ACCOUNTS: RecordKind<'account'> = {
  table: 'accounts',
  versioned: true,
  entityType: 'account',
  columns: ['name', 'user_id'],
  unique: {},
  toMessage: (row) => ({
    ...stamps(row as unknown as Stamped),
    name: text(row.name),
    userId: text(row.user_id),
  }),
};

export const CATEGORIES: RecordKind<'category'> = {
  table: 'categories',
  versioned: true,
  entityType: 'category',
  columns: ['name'],
  unique: { categories_name_key: 'name' },
  toMessage: (row) => ({ ...stamps(row as unknown as Stamped), name: text(row.name) }),
};

export const REGISTRATION_NUMBERS: RecordKind<'registration_number'> = {
  table: 'registration_numbers',
  versioned: false,
  entityType: 'registration_number',
  columns: ['number'],
  unique: { registration_numbers_number_key: 'number' },
  toMessage: (row) => ({ ...stamps(row as unknown as Stamped), number: text(row.number) }),
};

export const STUDENTS: RecordKind<'student'> = {
  table: 'students',
  versioned: true,
  entityType: 'student',
  columns: ['registration_number_id', 'user_id', 'current_program_level_id'],
  unique: { students_registration_number_id_key: 'registrationNumberId', students_user_id_key: 'userId' },
  toMessage: (row) => ({
    ...stamps(row as unknown as Stamped),
    registrationNumberId: text(row.registration_number_id),
    userId: text(row.user_id),
    currentProgramLevelId: text(row.current_program_level_id),
  }),
};
