import { parse } from 'csv-parse';
import { openTextStream, type ParsedRow, type ReadOptions } from './text-lines';

export interface DelimitedOptions extends ReadOptions {
  delimiter: ',' | '\t';
  /** Tab-separated government files do not quote; a `"` there is part of the text. */
  quoted: boolean;
  /** Lines starting with this character are skipped (never a `#` inside a field). */
  comment?: string;
}

/**
 * Fields of each record of a CSV or TSV file, with the line the record ends on.
 * Column counts are not enforced here: each source decides what it can repair.
 */
export async function* readDelimited(path: string, options: DelimitedOptions): AsyncGenerator<{ line: number; fields: string[] }> {
  const parser = openTextStream(path, options).pipe(
    parse({
      delimiter: options.delimiter,
      quote: options.quoted ? '"' : false,
      comment: options.comment,
      comment_no_infix: options.comment !== undefined,
      relax_column_count: true,
      relax_quotes: !options.quoted,
      skip_empty_lines: true,
      bom: true,
      info: true,
    }),
  );
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    yield { line: info.lines, fields: record };
  }
}

/**
 * Records of a file whose first record is a header that must equal `columns`,
 * as objects keyed by column. A row with another field count is rejected.
 */
export async function* readWithHeader<C extends string>(
  path: string,
  columns: readonly C[],
  options: DelimitedOptions,
): AsyncGenerator<ParsedRow<Record<C, string>>> {
  let header = true;
  for await (const { line, fields } of readDelimited(path, options)) {
    if (header) {
      header = false;
      if (fields.length !== columns.length || columns.some((column, i) => fields[i].trim() !== column)) {
        throw new Error(`${path}:${line}: expected the header ${columns.join(', ')}, found ${fields.join(', ')}`);
      }
      continue;
    }
    if (fields.length !== columns.length) {
      yield { line, error: `expected ${columns.length} fields, found ${fields.length}` };
      continue;
    }
    yield { line, record: Object.fromEntries(columns.map((column, i) => [column, fields[i].trim()])) as Record<C, string> };
  }
}

/**
 * readWithHeader, with each record turned into T by `convert`, which returns
 * a string instead to reject the row with that reason.
 */
export async function* readConverted<C extends string, T>(
  path: string,
  columns: readonly C[],
  options: DelimitedOptions,
  convert: (record: Record<C, string>) => T | string,
): AsyncGenerator<ParsedRow<T>> {
  for await (const row of readWithHeader(path, columns, options)) {
    if ('error' in row) {
      yield row;
      continue;
    }
    const converted = convert(row.record);
    yield typeof converted === 'string' ? { line: row.line, error: converted } : { line: row.line, record: converted };
  }
}
