import { escapeLiteral } from 'pg';
import type { Sequelize } from 'sequelize';
import { selectRows } from '@libs/db';
import type { TermIndex } from './term-index';
import { TermTable, type ConceptName, type TermRow } from './term-table';

/**
 * How long the statement that reads a vocabulary's terms may run: a table of the full imports reads in well under a
 * second, and a lock held on a terms table (an operator's, a migration's) must not hold every search that waits
 * for the table with it for longer than this. (The versions' read is a primary-key read that writers never lock.)
 */
const TERMS_STATEMENT_TIMEOUT_MS = 30_000;
const bounded = (statement: string) => `SET LOCAL statement_timeout = ${TERMS_STATEMENT_TIMEOUT_MS};\n${statement}`;

/**
 * A vocabulary's terms and its concepts' names, with the version of its dataset, in one statement: one snapshot,
 * so the version names exactly these rows (a write bumps it in its own transaction: migrations 0009, 0012).
 */
async function loadTable(sequelize: Sequelize, dataset: string, index: TermIndex): Promise<TermTable> {
  const rows = await selectRows<{ kind: number; pk: string; text: string; is_name: boolean }>(
    sequelize,
    bounded(`SELECT 0 AS kind, version::text AS pk, NULL AS text, NULL::boolean AS is_name FROM dataset_versions WHERE dataset = ${escapeLiteral(dataset)}
     UNION ALL SELECT 1, ${index.owner}::text, term, is_name FROM ${index.terms}
     UNION ALL SELECT 2, id::text, name, NULL FROM ${index.owners}`),
  );
  let version: bigint | undefined;
  const terms: TermRow[] = [];
  const concepts: ConceptName[] = [];
  for (const row of rows) {
    if (row.kind === 0) version = BigInt(row.pk);
    else if (row.kind === 1) terms.push({ pk: row.pk, term: row.text, isName: row.is_name });
    else concepts.push({ pk: row.pk, name: row.text });
  }
  if (version === undefined) throw new Error(`dataset_versions has no row for ${dataset}`);
  return new TermTable(version, terms, concepts);
}

/**
 * Each vocabulary's TermTable, never older than a write the caller could have seen: `current` reads the datasets'
 * versions (one primary-key read) and rebuilds each table whose dataset has a newer version since it was built.
 * Versions come from one sequence and each write's bump waits for the one before on the dataset's row, so a
 * later commit always has the higher number. Concurrent requests share one rebuild; a rebuild begun before the
 * version a request read may be older than it, and the request then waits for the next.
 */
export class TermTables<Dataset extends string> {
  private readonly built = new Map<Dataset, TermTable>();
  private readonly building = new Map<Dataset, Promise<TermTable>>();

  constructor(
    private readonly sequelize: Sequelize,
    private readonly indexes: Readonly<Record<Dataset, TermIndex>>,
  ) {}

  /** The tables of these datasets, in their order: built, or rebuilt, first when their dataset has changed. */
  async current(datasets: readonly Dataset[]): Promise<TermTable[]> {
    const versions = await this.versions(datasets);
    return Promise.all(datasets.map((dataset, i) => this.atLeast(dataset, versions[i])));
  }

  /**
   * The dataset's table when it is as new as its dataset, else undefined while a rebuild (begun here when none is
   * under way) brings it up to date: for a caller with another way to answer meanwhile (fuzzy search's near pass,
   * from the trigram index), so that none of its requests waits for a build, the first after a start or an import
   * included, nor for a lock that holds the build's read. A failed rebuild is left to the next request to try again
   * (type-ahead, which waits with `current`, reports it).
   */
  async ifCurrent(dataset: Dataset): Promise<TermTable | undefined> {
    const [version] = await this.versions([dataset]);
    const table = this.built.get(dataset);
    if (table && table.version >= version) return table;
    this.rebuild(dataset).catch(() => undefined);
    return undefined;
  }

  private async versions(datasets: readonly Dataset[]): Promise<bigint[]> {
    const rows = await selectRows<{ dataset: Dataset; version: string }>(
      this.sequelize,
      'SELECT dataset, version::text AS version FROM dataset_versions WHERE dataset = ANY($1)',
      [datasets],
    );
    const versions = new Map(rows.map((row) => [row.dataset, BigInt(row.version)]));
    return datasets.map((dataset) => {
      const version = versions.get(dataset);
      if (version === undefined) throw new Error(`dataset_versions has no row for ${dataset}`);
      return version;
    });
  }

  private async atLeast(dataset: Dataset, version: bigint): Promise<TermTable> {
    for (;;) {
      const table = this.built.get(dataset);
      if (table && table.version >= version) return table;
      await this.rebuild(dataset);
    }
  }

  /** The rebuild under way, or a new one: concurrent requests share it. */
  private rebuild(dataset: Dataset): Promise<TermTable> {
    let rebuild = this.building.get(dataset);
    if (!rebuild) {
      rebuild = loadTable(this.sequelize, dataset, this.indexes[dataset])
        .then((fresh) => {
          // The older table goes as soon as the newer is built: the heap holds both only while it is.
          if ((this.built.get(dataset)?.version ?? -1n) < fresh.version) this.built.set(dataset, fresh);
          return fresh;
        })
        .finally(() => this.building.delete(dataset));
      this.building.set(dataset, rebuild);
    }
    return rebuild;
  }
}
