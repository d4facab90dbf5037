/**
 * Hostile HTTP requests for every operation of the gateway's /openapi.json:
 * hostile path and query values (raw bad escapes, encoded surrogates, emoji at
 * every cut, 10 KB), headers (keys of every role, X-Request-Id,
 * Idempotency-Key, If-Match, Accept, Content-Type) and JSON bodies shaped like
 * the documented schema but full of hostile strings, wrong types, huge numbers
 * and unknown fields, or not JSON at all. A new operation is covered as soon as
 * it is documented.
 */
import fc from 'fast-check';
import { hostileHeaderValue, hostileString } from './hostile-values';

export interface HostileRequest {
  method: string;
  /** Path and query, as sent (percent-encoded, or raw on purpose). */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** What the run knows that a client could know: its keys, ids of the demo records, cursors it was given. */
export interface Knowledge {
  keys: string[];
  ids: string[];
  /** Ids that fit a body field of this name (accountId: an account's), so that a valid body gets past the lookups. */
  idsFor: Record<string, string[]>;
  cursors: string[];
}

/** The reported request's id: 'a' and 30 emoji, percent-encoded. */
const EMOJI_ID = `a${'%F0%9F%98%80'.repeat(30)}`;
const RAW_PATH_VALUES = ['%', '%zz', '%ED%A0%80', '%F0%9F%98', '%C0%AF', '%00', '%2F', 'a%2Fb', '..', '.', '%2e%2e', '~', EMOJI_ID];
/** A body over the gateway's limit (BODY_LIMIT_BYTES, 1 MB by default). */
const OVERSIZED_BODY = JSON.stringify({ name: 'x'.repeat(1_100_000) });
const DEEP_JSON = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
/** One item more than a bulk operation takes; built once. */
const LONG_LISTS = [Array(1_001).fill('00000000-0000-4000-8000-000000000000'), Array(1_001).fill({})];

/** Percent-encoding; a lone surrogate cannot travel in a URL, so it goes as U+FFFD. */
function encode(value: string): string {
  return encodeURIComponent(value.toWellFormed());
}

/** A value for a URL: mostly encoded, sometimes raw with bad escapes; long ones kept under Node's 16 KB head. */
function urlValue(values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: values.map((v) => encode(v).slice(0, 4_000)), weight: 4 },
    fc.constantFrom(...RAW_PATH_VALUES),
    values.map((v) => v.replace(/[^\x21-\x7e]/g, '').replace(/[#?&/]/g, '').slice(0, 2_000)),
  );
}

const deref = (schema: Schema | undefined, document: OpenApiDocument): Schema => {
  const name = typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
  return name ? (document.components.schemas[name] ?? {}) : (schema ?? {});
};

/** A value of the wrong type, or one no sane client sends. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, [], {}, [null], { '': null }),
  fc.double(),
  fc.integer(),
  fc.constantFrom('9'.repeat(400), `-${'9'.repeat(30)}`),
);

/** A JSON value shaped like `schema`: each part either plausible, hostile or of the wrong type. */
function jsonValue(schema: Schema | undefined, document: OpenApiDocument, knowledge: Knowledge, depth = 0): fc.Arbitrary<unknown> {
  const resolved = deref(schema, document);
  const wrong = { arbitrary: wrongValue, weight: 1 };
  const variants = [resolved.oneOf, resolved.anyOf].find(Array.isArray) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map((variant) => jsonValue(variant, document, knowledge, depth)), wrongValue);
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  const plausible: fc.Arbitrary<unknown>[] = [];
  if (Array.isArray(resolved.enum)) plausible.push(fc.constantFrom(...(resolved.enum as unknown[])));
  switch (type) {
    case 'string':
      if (resolved.format === 'uuid') plausible.push(fc.constantFrom(...knowledge.ids), fc.uuid());
      if (resolved.format === 'date') plausible.push(fc.constantFrom('2026-09-01', '2026-02-29', '0000-01-01', '9999-12-31'));
      if (resolved.format === 'email') plausible.push(fc.emailAddress());
      return fc.oneof({ arbitrary: hostileString(), weight: 3 }, ...plausible.map((arbitrary) => ({ arbitrary, weight: 3 })), fc.string(), wrong);
    case 'integer':
    case 'number':
      return fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom(0, 1, -1, 2 ** 31, 2 ** 53, 1e21), ...plausible, wrong);
    case 'boolean':
      return fc.oneof(fc.boolean(), wrong);
    case 'array': {
      if (depth > 3) return fc.constant([]);
      const item = jsonValue(resolved.items as Schema, document, knowledge, depth + 1);
      return fc.oneof({ arbitrary: fc.array(item, { maxLength: 4 }), weight: 4 }, fc.constantFrom(...LONG_LISTS), wrong);
    }
    case 'object':
    default: {
      if (depth > 3) return fc.constant({});
      const properties = Object.entries((resolved.properties ?? {}) as Record<string, Schema>);
      const record = fc.record(
        Object.fromEntries(properties.map(([name, property]) => [name, jsonValue(property, document, knowledge, depth + 1)])),
        { requiredKeys: [] },
      );
      const extra = fc.dictionary(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'version', ''), fc.string({ maxLength: 10 })), wrongValue, {
        maxKeys: 2,
      });
      return fc.oneof(
        { arbitrary: fc.tuple(record, extra).map(([known, unknown]) => ({ ...unknown, ...known })), weight: 6 },
        ...plausible,
        wrong,
      );
    }
  }
}

/** A valid value of `schema`, as a careful client would send it (named after `name`, for ids). */
function validValue(schema: Schema | undefined, document: OpenApiDocument, knowledge: Knowledge, name = '', depth = 0): fc.Arbitrary<unknown> {
  const resolved = deref(schema, document);
  const variants = [resolved.oneOf, resolved.anyOf].find(Array.isArray) as Schema[] | undefined;
  if (variants) return validValue(variants.find((v) => deref(v, document).type !== 'null') ?? {}, document, knowledge, name, depth);
  if (Array.isArray(resolved.enum)) return fc.constantFrom(...(resolved.enum as unknown[]).filter((v) => v !== null));
  const type = Array.isArray(resolved.type) ? resolved.type.find((t) => t !== 'null') : resolved.type;
  switch (type) {
    case 'string': {
      if (knowledge.idsFor[name]) return fc.constantFrom(...knowledge.idsFor[name]);
      if (resolved.format === 'uuid') return fc.constantFrom(...knowledge.ids);
      if (resolved.format === 'date') return fc.constant('2026-09-01');
      if (resolved.format === 'email') return fc.emailAddress();
      const min = Number(resolved.minLength ?? 1);
      return fc.string({ unit: fc.constantFrom(...'abcdefgh'), minLength: min, maxLength: Math.max(min, Math.min(Number(resolved.maxLength ?? 20), 20)) });
    }
    case 'integer':
    case 'number':
      return fc.integer({ min: Number(resolved.minimum ?? -100_000), max: Number(resolved.maximum ?? 100_000) });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(resolved.items as Schema, document, knowledge, name, depth + 1), { minLength: 1, maxLength: 2 });
    default: {
      if (depth > 3) return fc.constant({});
      const required = new Set((resolved.required ?? []) as string[]);
      const properties = Object.entries((resolved.properties ?? {}) as Record<string, Schema>);
      return fc.record(
        Object.fromEntries(properties.map(([key, property]) => [key, validValue(property, document, knowledge, key, depth + 1)])),
        { requiredKeys: properties.map(([key]) => key).filter((key) => required.has(key)) },
      );
    }
  }
}

/** A valid body with one field made hostile, so that the hostile value gets past the other checks. */
function oneFieldHostile(schema: Schema, document: OpenApiDocument, knowledge: Knowledge): fc.Arbitrary<unknown> {
  const resolved = deref(schema, document);
  if (resolved.type === 'array') {
    return fc
      .tuple(validValue(resolved, document, knowledge), oneFieldHostile(resolved.items as Schema, document, knowledge), fc.nat())
      .map(([items, bad, at]) => (items as unknown[]).map((item, i) => (i === at % (items as unknown[]).length ? bad : item)));
  }
  const properties = Object.entries((resolved.properties ?? {}) as Record<string, Schema>);
  if (properties.length === 0) return jsonValue(resolved, document, knowledge);
  return fc
    .constantFrom(...properties)
    .chain(([key, property]) =>
      fc.tuple(validValue(resolved, document, knowledge), jsonValue(property, document, knowledge, 1)).map(([valid, bad]) => ({ ...(valid as object), [key]: bad })),
    );
}

/** The body of a request: JSON like the schema, or not JSON, or too big, or too deep. */
function bodyOf(operation: Operation, document: OpenApiDocument, knowledge: Knowledge): fc.Arbitrary<string | undefined> {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  const garbage = fc.oneof(
    fc.constantFrom('', '{', 'null', '"\\ud800"', '{"a":"\\u0000"}', '[1,2', 'NaN', '\u0000', '{"__proto__":{"admin":true}}', DEEP_JSON),
    fc.string({ unit: 'binary', maxLength: 100 }),
  );
  if (!schema) return fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, garbage);
  return fc.oneof(
    { arbitrary: jsonValue(schema, document, knowledge).map((value) => JSON.stringify(value)), weight: 6 },
    { arbitrary: oneFieldHostile(schema, document, knowledge).map((value) => JSON.stringify(value)), weight: 6 },
    { arbitrary: validValue(schema, document, knowledge).map((value) => JSON.stringify(value)), weight: 2 },
    { arbitrary: garbage, weight: 2 },
    fc.constant(OVERSIZED_BODY),
  );
}

function queryOf(operation: Operation, knowledge: Knowledge): fc.Arbitrary<string> {
  const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const name = fc.oneof({ arbitrary: fc.constantFrom(...names, 'cursor'), weight: 4 }, fc.constantFrom('unknown', 'N', 'cursor[]', '__proto__', ''));
  const damagedCursor = fc.tuple(fc.constantFrom(...knowledge.cursors), fc.nat(), fc.string({ minLength: 1, maxLength: 1 })).map(([cursor, at, char]) => {
    const i = at % cursor.length;
    return `${cursor.slice(0, i)}${char}${cursor.slice(i + 1)}`;
  });
  const value = fc.oneof(
    hostileString(),
    fc.constantFrom('true', 'false', '1', '50', '500', 'fhir', 'json', 'asthma', '2026-09-01', 'pending', 'transaction', ...knowledge.ids),
    fc.constantFrom(...knowledge.cursors),
    damagedCursor,
    fc.constantFrom('x'.repeat(10_240), 'a,'.repeat(2_000)),
  );
  const pair = fc.tuple(urlValue(name), urlValue(value)).map(([n, v]) => `${n}=${v}`);
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&'));
}

function headersOf(method: string, operation: Operation, knowledge: Knowledge, hasBody: boolean): fc.Arbitrary<Record<string, string>> {
  const declared = new Set((operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()));
  // A declared header is sent most of the time; any header may turn up anywhere.
  const header = (name: string, values: fc.Arbitrary<string>) =>
    fc.oneof(
      { arbitrary: values.map((value) => ({ [name]: value })), weight: declared.has(name) ? 4 : 1 },
      { arbitrary: fc.constant({}), weight: declared.has(name) ? 1 : 4 },
    );
  const anyValue = hostileHeaderValue({ latin1: true });
  const authorization = fc.oneof(
    { arbitrary: fc.constantFrom(...knowledge.keys).map((key) => `Bearer ${key}`), weight: 12 },
    fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic YTpi', 'bearer x'),
    anyValue.map((v) => `Bearer ${v}`),
  );
  return fc
    .tuple(
      fc.option(authorization, { freq: 10 }).map((value) => (value === null ? {} : { authorization: value })),
      header('x-request-id', fc.oneof(anyValue, fc.constantFrom('req-1', 'a'.repeat(128), 'a'.repeat(129)))),
      header('idempotency-key', fc.oneof(anyValue, fc.uuid())),
      header('if-match', fc.oneof(anyValue, fc.constantFrom('"1"', '"2"', '*', 'W/"1"', '"0"', '"2147483648"', '"1", "2"'))),
      header('if-none-match', anyValue),
      header('accept', fc.oneof(anyValue, fc.constantFrom('application/fhir+json', 'application/json', '*/*', 'text/html'))),
      hasBody && method !== 'GET'
        ? fc
            .oneof(
              { arbitrary: fc.constant('application/json'), weight: 8 },
              fc.constantFrom('text/plain', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded'),
              anyValue,
            )
            .map((value) => ({ 'content-type': value }))
        : fc.constant({}),
    )
    .map((parts) => Object.assign({}, ...parts) as Record<string, string>);
}

/** Requests for one operation of the document. */
function requestsFor(path: string, method: string, operation: Operation, document: OpenApiDocument, knowledge: Knowledge) {
  const upper = method.toUpperCase();
  const pathIds = fc.oneof(hostileString(), fc.constantFrom(...knowledge.ids), fc.uuid(), fc.nat().map(String));
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  // The values a path parameter enumerates (a bulk dataset's name) are sent too, to reach the operation past its checks.
  const valuesOf = (name: string) => {
    const declared = deref(operation.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema, document).enum;
    return Array.isArray(declared) ? fc.oneof(pathIds, fc.constantFrom(...declared.map(String))) : pathIds;
  };
  const filledPath = fc
    .tuple(...names.map((name) => urlValue(valuesOf(name))))
    .map((values) => names.reduce((built, name, i) => built.replace(`{${name}}`, values[i] || '%20'), path));
  const body = upper === 'GET' || upper === 'HEAD' ? fc.constant(undefined) : bodyOf(operation, document, knowledge);
  return fc.tuple(filledPath, queryOf(operation, knowledge), body).chain(([filled, query, payload]) =>
    headersOf(upper, operation, knowledge, payload !== undefined).map(
      (headers): HostileRequest => ({ method: upper, url: query ? `${filled}?${query}` : filled, headers, body: payload }),
    ),
  );
}

/** Hostile requests spread evenly over every operation of the document. */
export function hostileRequests(document: OpenApiDocument, knowledge: Knowledge): fc.Arbitrary<HostileRequest> {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => requestsFor(path, method, operation, document, knowledge)),
  );
  return fc.oneof(...operations);
}

/** How many operations the document has, for the report. */
export const operationCount = (document: OpenApiDocument): number =>
  Object.values(document.paths).reduce((count, item) => count + Object.keys(item).length, 0);
