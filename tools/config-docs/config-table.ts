import { z } from 'zod';

/**
 * The README's configuration table, made from each service's configSchema: a variable's description, default
 * and range are read from its zod field, so the table cannot say what the code does not. A field's metadata
 * may add `shownDefault` (what to say of a default that is no value to copy: a path on the build machine, a
 * development secret), and `row` with `label` (one row for a family of variables, its defaults labelled:
 * `RATE_LIMIT_<ROLE>`, reader `60`, …).
 */

export interface ConfigSource {
  service: string;
  schema: z.ZodObject;
}

interface FieldMeta {
  description?: string;
  shownDefault?: string;
  row?: string;
  label?: string;
}

interface Entry {
  service: string;
  label: string;
  /** The default as the table shows it: `5000`, (empty), (unset). */
  value: string;
  /** Its range, for a number: (50–60000). */
  range: string;
}

interface Row {
  names: string[];
  description: string;
  entries: Entry[];
}

const code = (text: string) => `\`${text}\``;

/** A field's default and range as the table shows them. */
function defaultOf(field: z.ZodType, meta: FieldMeta): Pick<Entry, 'value' | 'range'> {
  const json = z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as { default?: unknown; minimum?: number; maximum?: number };
  const range = json.minimum !== undefined && json.maximum !== undefined ? ` (${json.minimum}–${json.maximum})` : '';
  if (meta.shownDefault) return { value: meta.shownDefault, range };
  return { value: json.default === undefined ? '(unset)' : json.default === '' ? '(empty)' : code(String(json.default)), range };
}

function rowsOf(sources: ConfigSource[]): Row[] {
  const rows = new Map<string, Row>();
  for (const { service, schema } of sources) {
    for (const [name, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
      const meta = (field.meta() ?? {}) as FieldMeta;
      if (!meta.description) throw new Error(`${service}: ${name} has no description (.describe()) for the README's configuration table`);
      const rowName = meta.row ?? name;
      const key = `${rowName}\n${meta.description}`;
      const row = rows.get(key) ?? { names: [rowName], description: meta.description, entries: [] };
      row.entries.push({ service, label: meta.label ?? service, ...defaultOf(field, meta) });
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

function servicesCell(row: Row, services: string[]): string {
  const named = [...new Set(row.entries.map((entry) => entry.service))];
  return named.length === services.length ? 'all' : named.join(', ');
}

const only = (values: string[]) => (new Set(values).size === 1 ? values[0] : undefined);

/**
 * One default when every entry has it (or has it but for the service's name), else each entry's, labelled, and
 * once when several services share it.
 */
function defaultCell({ entries }: Row): string {
  const range = only(entries.map((entry) => entry.range));
  const value =
    only(entries.map((entry) => entry.value)) ??
    only(entries.map((entry) => entry.value.replaceAll(entry.service, '<service>'))) ??
    [...new Set(entries.map((entry) => `${entry.label} ${entry.value}${range === undefined ? entry.range : ''}`))].join(', ');
  return `${value}${range ?? ''}`;
}

/** The Markdown table: variables of every service first, then those of fewer, each group in the sources' order. */
export function configTable(sources: ConfigSource[]): string {
  const services = sources.map((source) => source.service);
  const cells = rowsOf(sources)
    .map((row, index) => ({ row, index, spread: new Set(row.entries.map((entry) => entry.service)).size }))
    .sort((a, b) => b.spread - a.spread || a.index - b.index)
    .map(({ row }) => ({ names: row.names, services: servicesCell(row, services), default: defaultCell(row), description: row.description }));
  // Variables that say the same of the same services (set both or neither) share a row.
  const merged: typeof cells = [];
  for (const cell of cells) {
    const same = merged.find((m) => m.services === cell.services && m.default === cell.default && m.description === cell.description);
    if (same) same.names.push(...cell.names);
    else merged.push({ ...cell, names: [...cell.names] });
  }
  const line = (columns: string[]) => `| ${columns.map((column) => column.replaceAll('|', '\\|')).join(' | ')} |`;
  return [
    '| Variable | Service | Default | Meaning |',
    '|---|---|---|---|',
    ...merged.map((cell) => line([cell.names.map(code).join(', '), cell.services, cell.default, cell.description])),
  ].join('\n');
}
