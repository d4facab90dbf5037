import Papa from 'papaparse';
import { CSV_BOM, csvRecord } from './csv';
import { decimalOf } from './money';

describe('csvRecord', () => {
  it('neutralises every formula start OWASP names, quotes text and leaves figures as numbers', () => {
    const cells = ['=1+1', '+1', '-1', '@A1', '\t=1', '\r=1', 'plain', 'a "b", c', 'two\r\nlines'];
    const line = csvRecord([...cells, { figure: '-12.50' }, null]);
    expect(line.endsWith('\r\n')).toBe(true);
    const parsed = Papa.parse<string[]>(CSV_BOM.slice(1) + line, { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data).toEqual([["'=1+1", "'+1", "'-1", "'@A1", "'\t=1", "'\r=1", 'plain', 'a "b", c', 'two\r\nlines', '-12.50', '']]);
  });
});

describe('decimalOf', () => {
  it.each([
    [0, '0.00'],
    [5, '0.05'],
    [-5, '-0.05'],
    [125_000, '1250.00'],
    [-125_001, '-1250.01'],
    [Number.MAX_SAFE_INTEGER, '90071992547409.91'],
  ])('%d minor units are %s', (minor, decimal) => expect(decimalOf(minor)).toBe(decimal));
});
