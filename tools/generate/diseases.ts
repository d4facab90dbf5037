import { Client } from 'pg';

const CHUNK = 100_000;

// Word stock for synthetic names, in the style of CTD's MEDIC vocabulary.
const HEADS = ['Syndrome', 'Disease', 'Deficiency', 'Dysplasia', 'Neoplasm', 'Carcinoma', 'Atrophy', 'Myopathy', 'Neuropathy', 'Anemia'];
const QUALIFIERS = ['Familial', 'Congenital', 'Hereditary', 'Juvenile', 'Acquired', 'Progressive', 'Chronic', 'Acute', 'Autosomal Recessive', 'X-Linked'];
const ORGANS = ['Cardiac', 'Renal', 'Hepatic', 'Pulmonary', 'Cerebellar', 'Retinal', 'Muscular', 'Cutaneous', 'Skeletal', 'Pancreatic', 'Thyroid', 'Adrenal'];

const arrayLiteral = (words: string[]) => `ARRAY[${words.map((w) => `'${w}'`).join(', ')}]`;

/**
 * Adds `count` synthetic diseases to a reference database, shaped like CTD
 * ones: a MESH-style id, a name of qualifier, organ, head word and a number, a
 * definition, tree numbers, and one to three synonyms, each also a lower-cased
 * row of disease_terms (the search index). Made inside PostgreSQL with
 * INSERT … SELECT over generate_series, as the transaction generator does.
 */
export async function generateDiseases(databaseUrl: string, count: number, log: (line: string) => void): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const [{ start }] = (await client.query<{ start: string }>('SELECT coalesce(max(id), 0) AS start FROM diseases')).rows;
    for (let done = 0; done < count; done += CHUNK) {
      const size = Math.min(CHUNK, count - done);
      const started = Date.now();
      await client.query('BEGIN');
      await client.query(
        `WITH made AS (
           INSERT INTO diseases (disease_id, name, definition, tree_numbers, parent_tree_numbers, synonyms)
           SELECT 'GEN:' || lpad(n::text, 8, '0'),
                  q || ' ' || o || ' ' || h || ' ' || (n / 1200),
                  'A generated ' || lower(h) || ' of the ' || lower(o) || ' system, for benchmarks.',
                  ARRAY['C' || lpad((n % 26)::text, 2, '0') || '.' || lpad((n % 997)::text, 3, '0')],
                  ARRAY['C' || lpad((n % 26)::text, 2, '0')],
                  (ARRAY[o || ' ' || h || ' ' || (n / 1200), h || ', ' || q || ' ' || (n / 1200), q || ' ' || h || ' Type ' || (n % 7)])[1:1 + n % 3]
             FROM generate_series($1::bigint + 1, $1::bigint + $2) AS n,
                  LATERAL (SELECT (${arrayLiteral(QUALIFIERS)})[1 + n % ${QUALIFIERS.length}] AS q,
                                  (${arrayLiteral(ORGANS)})[1 + (n / ${QUALIFIERS.length}) % ${ORGANS.length}] AS o,
                                  (${arrayLiteral(HEADS)})[1 + (n / ${QUALIFIERS.length * ORGANS.length}) % ${HEADS.length}] AS h) AS words
           RETURNING id, name, synonyms)
         INSERT INTO disease_terms (disease_pk, term, is_name)
         SELECT id, lower(name), true FROM made
         UNION
         SELECT id, lower(synonym), false FROM made, unnest(synonyms) AS synonym WHERE lower(synonym) <> lower(name)`,
        [Number(start) + done, size],
      );
      await client.query('COMMIT');
      log(`diseases: ${(done + size).toLocaleString('en')} of ${count.toLocaleString('en')} (${Date.now() - started} ms)`);
    }
    await client.query('ANALYZE diseases; ANALYZE disease_terms');
  } finally {
    await client.end();
  }
}
