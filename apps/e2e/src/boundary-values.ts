/**
 * Values at the edges of what a parameter's schema in /openapi.json describes, and just past them: lengths at
 * and over the maximum, the first and last of each format and near misses, every enum value and its misspellings,
 * the ends of each integer range. Which side of the document a value falls on is not decided here: the document's
 * own schema says it (boundary-probe.spec.ts asks ajv).
 */
export interface ParameterSchema {
  type?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  anyOf?: ParameterSchema[];
  example?: unknown;
}

const FORMAT_VALUES: Record<string, string[]> = {
  date: ['1900-01-01', '2999-12-31', '2024-02-29', '9999-12-31', '1899-12-31', '3000-01-01', '2023-02-29', '2027-13-01', '2027-3-8'],
  'date-time': [
    '1900-01-01T00:00:00Z',
    '1900-01-01T00:00:00+01:00',
    '2999-12-31T23:59:59.999999999-23:59',
    '9999-12-31T23:59:59Z',
    '2027-03-08t09:00:00z',
    '2027-03-08T09:00:00+05:30',
    '1899-12-31T23:59:59Z',
    '2027-02-29T09:00:00Z',
    '2027-03-08T24:00:00Z',
    '2027-03-08T09:00:00+0530',
    '2027-03-08 09:00:00Z',
    '2027-03-08T09:00:00',
  ],
  email: [
    'ada@example.org',
    'ADA@Example.ORG',
    "o'brien+list@mail.example.org",
    // 254 characters, the longest an address may be, in labels of at most 63.
    `${'a'.repeat(64)}@${Array(3).fill('b'.repeat(61)).join('.')}.org`,
    'ada@example',
    'ada.example.org',
    '.ada@example.org',
  ],
  uuid: [
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    '0f8fad5b-d9cb-469f-a165-70867728950e',
    '0F8FAD5B-D9CB-469F-A165-70867728950E',
    '0f8fad5b-d9cb-969f-a165-70867728950e',
    '0f8fad5b-d9cb-469f-a165-70867728950',
    '0f8fad5bd9cb469fa16570867728950e',
  ],
};

/** Text for parameters without a format: plain words, ids, zones, and what no plain value holds. */
const TEXT_VALUES = ['', 'a', 'a b', 'é', '0', '1', '9'.repeat(18), '9'.repeat(19), 'Europe/London', 'europe/london', 'key_1.2', 'a\u0001b', '\u0000'];

/** Text of `length` characters as one word, and as a comma list of terms of about a hundred characters. */
const fillers = (length: number) => [
  'a'.repeat(length),
  Array.from({ length }, (_, i) => (i % 100 === 99 && i < length - 1 ? ',' : 'a')).join(''),
  'é'.repeat(length),
];

const formatsOf = (schema: ParameterSchema) => [schema.format, ...(schema.anyOf ?? []).map((branch) => branch.format)].filter(Boolean) as string[];

/** The values to try for a parameter, as a client writes them (query, path or header text). */
export function boundaryValues(schema: ParameterSchema): string[] {
  const values: string[] = [];
  if (Array.isArray(schema.enum)) {
    for (const value of schema.enum.map(String)) values.push(value, `${value}x`, value.toUpperCase());
  } else if (schema.type === 'boolean') {
    values.push('true', 'false', 'TRUE', '1', '');
  } else if (schema.type === 'integer') {
    const { minimum = 0, maximum = 1_000_000 } = schema;
    values.push(String(minimum), String(maximum), String(minimum - 1), String(maximum + 1), '1.5', 'x', '');
  } else {
    const formats = formatsOf(schema);
    values.push(...(formats.length ? formats.flatMap((format) => FORMAT_VALUES[format] ?? []) : TEXT_VALUES));
    if (schema.maxLength !== undefined) values.push(...fillers(schema.maxLength), 'a'.repeat(schema.maxLength + 1));
    if (schema.minLength) values.push('a'.repeat(schema.minLength), 'a'.repeat(schema.minLength - 1));
    if (typeof schema.example === 'string') values.push(schema.example);
  }
  return [...new Set(values)];
}

/** A parameter's text as the typed value its schema describes: query text `5` is the integer 5. */
export function typedValue(schema: ParameterSchema, text: string): unknown {
  if (schema.type === 'integer' && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (schema.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
