import pg, { escapeLiteral } from 'pg';
import { QueryTypes, Sequelize } from 'sequelize';
import type { Statement } from '@libs/db';
import type { ScratchDatabase } from '@libs/testing';

/**
 * What the search plan tests share (diseases/disease-search-plans.spec.ts, catalogue/drug-search-plans.spec.ts):
 * a connection that records every query a search sends to pg, and each recorded search statement planned again
 * with EXPLAIN (FORMAT JSON), settings and all: a simple-query message as it was sent, a prepared statement with
 * its values both as a custom plan and as the generic plan PostgreSQL switches to after five runs.
 */

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

export const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Reads of a whole table: a sequential scan, or an index walked from end to end (an index scan without a condition). */
export function wholeTableReads(plan: PlanNode): string[] {
  return nodesOf(plan)
    .filter(
      (node) =>
        node['Node Type'] === 'Seq Scan' || (/^Index (Only )?Scan$/.test(node['Node Type']) && node['Index Cond'] === undefined),
    )
    .map((node) => `${node['Node Type']} on ${node['Index Name'] ?? node['Relation Name']}`);
}

/** What the search sent to pg: a simple-query message, or a prepared statement with its values. */
type Sent = string | Statement;

/** A search statement to plan: a message of settings and a SELECT, or a prepared SELECT and the settings its transaction began with. */
export type SearchStatement = { message: string } | { settings: string[]; prepared: Statement };

/** The search statements among what was sent: BEGIN's message gives its settings to the prepared statements after it. */
function searchStatements(sent: Sent[]): SearchStatement[] {
  const statements: SearchStatement[] = [];
  let settings: string[] = [];
  for (const query of sent) {
    if (typeof query !== 'string') statements.push({ settings, prepared: query });
    else if (query.startsWith('BEGIN')) settings = query.split(';\n').slice(1);
    else if (query !== 'COMMIT') statements.push({ message: query });
  }
  return statements;
}

/** A connection to the scratch database that records every query sent on it; take() gives the search statements sent since the last call. */
export function recordingSequelize(db: ScratchDatabase): { sequelize: Sequelize; take(): SearchStatement[] } {
  const sent: Sent[] = [];
  const sequelize = new Sequelize(db.url, { dialect: 'postgres', dialectModule: pg, logging: false });
  const { connectionManager } = sequelize;
  const lend = connectionManager.getConnection.bind(connectionManager);
  const recording = new WeakSet<object>();
  connectionManager.getConnection = async (options) => {
    const client = (await lend(options)) as unknown as { query: (query: Sent, ...rest: unknown[]) => unknown };
    if (!recording.has(client)) {
      recording.add(client);
      const query = client.query.bind(client);
      client.query = (message: Sent, ...rest: unknown[]) => {
        sent.push(message);
        return query(message, ...rest);
      };
    }
    return client as never;
  };
  return { sequelize, take: () => searchStatements(sent.splice(0)) };
}

const planOf = (rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[]) => rows[0]['QUERY PLAN'][0].Plan;

/** A value as a literal of EXECUTE's argument list (an array in PostgreSQL's text form). */
const literal = (value: unknown) => escapeLiteral(Array.isArray(value) ? `{${value.join(',')}}` : String(value));

let explained = 0;

/**
 * A recorded search statement planned again: a message's settings, then EXPLAIN of its last statement (the
 * SELECT); a prepared statement's settings, then EXPLAIN EXECUTE with its values, planned as a custom and as
 * the generic plan.
 */
export async function explain(db: ScratchDatabase, statement: SearchStatement, plannerCosts: string[] = []): Promise<PlanNode[]> {
  if ('message' in statement) {
    const statements = statement.message.split(';\n');
    const select = statements.pop() as string;
    const rows = await db.sequelize.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      [...plannerCosts, ...statements, `EXPLAIN (FORMAT JSON) ${select}`].join(';\n'),
      { type: QueryTypes.SELECT },
    );
    return [planOf(rows)];
  }
  const { settings, prepared } = statement;
  // A prepared statement outlives its transaction: a name of its own, deallocated at the end.
  const name = `explained_${(explained += 1)}`;
  return db.sequelize.transaction(async (transaction) => {
    const run = (sql: string) => db.sequelize.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(sql, { type: QueryTypes.SELECT, transaction });
    await run([...plannerCosts, ...settings, `PREPARE ${name} AS ${prepared.text}`].join(';\n'));
    const plans: PlanNode[] = [];
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      plans.push(planOf(await run(`SET LOCAL plan_cache_mode = ${mode};\nEXPLAIN (FORMAT JSON) EXECUTE ${name}(${prepared.values.map(literal).join(', ')})`)));
    }
    await run(`DEALLOCATE ${name}`);
    return plans;
  });
}

/** The search statement's SQL text. */
export const textOf = (statement: SearchStatement) => ('message' in statement ? statement.message : statement.prepared.text);
