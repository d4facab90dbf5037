import type { Sequelize } from 'sequelize';

/**
 * Starter records for local use, with fixed ids so the README's curl examples
 * work on any fresh machine. Inserted only when missing; never in production.
 */
export const DEMO_ACCOUNT_ID = '00000000-0000-4000-8000-00000000a001';
export const DEMO_CATEGORY_IDS = {
  tuition: '00000000-0000-4000-8000-00000000c001',
  accommodation: '00000000-0000-4000-8000-00000000c002',
  meals: '00000000-0000-4000-8000-00000000c003',
  books: '00000000-0000-4000-8000-00000000c004',
  scholarship: '00000000-0000-4000-8000-00000000c005',
} as const;

export async function seedDemoData(sequelize: Sequelize): Promise<void> {
  await sequelize.query(
    `INSERT INTO accounts (id, name) VALUES ($1, 'University fees account') ON CONFLICT (id) DO NOTHING`,
    { bind: [DEMO_ACCOUNT_ID] },
  );
  const categories = Object.entries(DEMO_CATEGORY_IDS).map(([name, id]) => ({
    id,
    name: name[0].toUpperCase() + name.slice(1),
  }));
  await sequelize.query(
    `INSERT INTO categories (id, name) SELECT id, name FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, name text)
     ON CONFLICT DO NOTHING`,
    { bind: [JSON.stringify(categories)] },
  );
}
