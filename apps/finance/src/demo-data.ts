import type { Sequelize } from 'sequelize';
import { DEMO_USER_IDS } from '@libs/contracts';

/**
 * Starter records for local use, with fixed ids so the README's curl examples
 * work on any fresh machine and the printed demo student key shows real
 * records. Inserted only when missing; never in production. Seeding is not a
 * user's change, so it writes no audit events.
 */
export const DEMO_ACCOUNT_ID = '00000000-0000-4000-8000-00000000a001';
export const DEMO_CATEGORY_IDS = {
  tuition: '00000000-0000-4000-8000-00000000c001',
  accommodation: '00000000-0000-4000-8000-00000000c002',
  meals: '00000000-0000-4000-8000-00000000c003',
  books: '00000000-0000-4000-8000-00000000c004',
  scholarship: '00000000-0000-4000-8000-00000000c005',
} as const;
export const DEMO_REGISTRATION_NUMBER_ID = '00000000-0000-4000-8000-00000000b001';
export const DEMO_STUDENT_ID = '00000000-0000-4000-8000-00000000e001';
export const DEMO_PAYMENT_ID = '00000000-0000-4000-8000-00000000f001';

const DEMO_TRANSACTIONS = [
  { id: '00000000-0000-4000-8000-0000000a1001', date: '2026-09-01', category: 'tuition', payee: 'Registrar', amount: 125_000 },
  { id: '00000000-0000-4000-8000-0000000a1002', date: '2026-09-03', category: 'accommodation', payee: 'Halls of residence', amount: 48_000 },
  { id: '00000000-0000-4000-8000-0000000a1003', date: '2026-09-10', category: 'books', payee: 'Campus bookshop', amount: 6_450 },
] as const;

const insertMissing = (table: string, columns: string, types: string) =>
  `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM jsonb_to_recordset($1::jsonb) AS r(${types}) ON CONFLICT DO NOTHING`;

export async function seedDemoData(sequelize: Sequelize): Promise<void> {
  const seed = (sql: string, rows: object[]) => sequelize.query(sql, { bind: [JSON.stringify(rows)] });
  await seed(insertMissing('accounts', 'id, name', 'id uuid, name text'), [{ id: DEMO_ACCOUNT_ID, name: 'University fees account' }]);
  await seed(
    insertMissing('categories', 'id, name', 'id uuid, name text'),
    Object.entries(DEMO_CATEGORY_IDS).map(([name, id]) => ({ id, name: name[0].toUpperCase() + name.slice(1) })),
  );
  await seed(insertMissing('registration_numbers', 'id, number', 'id uuid, number text'), [
    { id: DEMO_REGISTRATION_NUMBER_ID, number: 'DEMO/2026/0001' },
  ]);
  await seed(
    insertMissing('students', 'id, registration_number_id, user_id, current_program_level_id', 'id uuid, registration_number_id uuid, user_id text, current_program_level_id text'),
    [{ id: DEMO_STUDENT_ID, registration_number_id: DEMO_REGISTRATION_NUMBER_ID, user_id: DEMO_USER_IDS.student, current_program_level_id: 'year-1' }],
  );
  // The student's charges: money into the university's account, owed by the student.
  await seed(
    insertMissing(
      'transactions',
      'id, student_id, date, category_id, payee, amount, account_id, made_by',
      'id uuid, student_id uuid, date date, category_id uuid, payee text, amount bigint, account_id uuid, made_by text',
    ),
    DEMO_TRANSACTIONS.map((t) => ({
      id: t.id,
      student_id: DEMO_STUDENT_ID,
      date: t.date,
      category_id: DEMO_CATEGORY_IDS[t.category],
      payee: t.payee,
      amount: t.amount,
      account_id: DEMO_ACCOUNT_ID,
      made_by: DEMO_USER_IDS.bursar,
    })),
  );
  await seed(
    insertMissing('financial_statements', 'id, student_id, date, description, debit', 'id uuid, student_id uuid, date date, description text, debit bigint'),
    DEMO_TRANSACTIONS.map((t) => ({
      id: t.id.replace('0000000a1', '0000000a2'),
      student_id: DEMO_STUDENT_ID,
      date: t.date,
      description: `${t.payee} (${t.category})`,
      debit: t.amount,
    })),
  );
  await seed(
    insertMissing('payments', 'id, student_id, user_id, amount, description, date', 'id uuid, student_id uuid, user_id text, amount bigint, description text, date date'),
    [{ id: DEMO_PAYMENT_ID, student_id: DEMO_STUDENT_ID, user_id: DEMO_USER_IDS.student, amount: 50_000, description: 'Bank transfer, first instalment', date: '2026-09-15' }],
  );
}
