/**
 * The RPCs of every service in libs/contracts, and what their requests hold,
 * learnt from the generated code itself: a new RPC or field is covered without
 * a list to keep up to date.
 */
import type { MethodDefinition } from '@grpc/grpc-js';
import * as contracts from '@libs/contracts';

export type Shape =
  | { kind: 'string' }
  /** A 64-bit integer, which the contracts carry as a decimal string (forceLong=string): the probes its encoder accepts. */
  | { kind: 'int64'; accepts: string[] }
  /** int32, uint32, double or an enum: the probe numbers its encoder accepts. */
  | { kind: 'number'; accepts: number[] }
  | { kind: 'boolean' }
  | { kind: 'list'; of: Shape }
  | { kind: 'message'; fields: Record<string, Shape> };

export interface Rpc {
  /** e.g. /finance.v1.FinanceService/CreateTransaction */
  path: string;
  /** The package before `.v1`, which names the declared service that serves it (libs/topology). */
  service: string;
  definition: MethodDefinition<unknown, unknown>;
  request: Shape;
}

const NUMBERS = [0, 1, -1, 2 ** 31 - 1, -(2 ** 31), 2 ** 32 - 1, 2 ** 53, 0.5, -1e308, NaN, Infinity];
const INT64S = ['0', '1', '-1', '9223372036854775807', '-9223372036854775808', '18446744073709551615'];
const MAX_DEPTH = 4;
const MAX_FIELD_NUMBER = 64;

/** Where a probe goes: a value put in the field's place in a whole request, read back from a decoded one. */
interface Path {
  place: (value: unknown) => unknown;
  read: (decoded: unknown) => unknown;
  /** Wire bytes of a request whose field at this path holds the given encoded message. */
  wrap: (inner: Buffer) => Buffer;
}

function varint(n: number): Buffer {
  const bytes: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) bytes.push((n % 0x80) | 0x80);
  return Buffer.from([...bytes, n]);
}

/** One field on the wire with an empty value of each wire type: varint, 64-bit, length-delimited, 32-bit. */
const emptyFields = (number: number) =>
  [
    [0, Buffer.from([0])],
    [1, Buffer.alloc(8)],
    [2, Buffer.from([0])],
    [5, Buffer.alloc(4)],
  ].map(([wireType, payload]) => Buffer.concat([varint(number * 8 + (wireType as number)), payload as Buffer]));

const lengthDelimited = (number: number, inner: Buffer) => Buffer.concat([varint(number * 8 + 2), varint(inner.length), inner]);

/**
 * The fields a message leaves unset or empty by default (optional fields and
 * lists): their field number and the value an empty one decodes to, found by
 * decoding one field of every number and wire type.
 */
function unsetFields(method: MethodDefinition<unknown, unknown>, path: Path, message: Record<string, unknown>) {
  const found = new Map<string, { number: number; value: unknown }>();
  const unset = Object.keys(message).filter((key) => message[key] === undefined || Array.isArray(message[key]));
  for (let number = 1; number <= MAX_FIELD_NUMBER && found.size < unset.length; number += 1) {
    for (const field of emptyFields(number)) {
      let decoded: Record<string, unknown> | undefined;
      try {
        decoded = path.read(method.requestDeserialize(path.wrap(field))) as Record<string, unknown>;
      } catch {
        continue; // a wire type this field cannot take
      }
      for (const key of unset) {
        const value = decoded?.[key];
        const changed = Array.isArray(value) ? value.length > 0 : value !== undefined;
        if (changed && !found.has(key)) found.set(key, { number, value: Array.isArray(value) ? value[0] : value });
      }
    }
  }
  return found;
}

/** A field's shape from its default value and from what survives an encode–decode round trip of probes put in its place. */
function shapeOf(method: MethodDefinition<unknown, unknown>, value: unknown, path: Path, depth: number): Shape | undefined {
  const accepted = (probe: unknown): unknown => {
    try {
      return path.read(method.requestDeserialize(method.requestSerialize(path.place(probe))));
    } catch {
      return undefined; // the encoder refused the probe
    }
  };
  if (depth > MAX_DEPTH) return undefined;
  switch (typeof value) {
    case 'string':
      return accepted('probe') === 'probe'
        ? { kind: 'string' }
        : { kind: 'int64', accepts: INT64S.filter((n) => accepted(n) !== undefined) };
    case 'number':
      return { kind: 'number', accepts: NUMBERS.filter((n) => accepted(n) !== undefined) };
    case 'boolean':
      return { kind: 'boolean' };
    case 'object':
      if (value === null) return undefined;
  }
  const message = value as Record<string, unknown>;
  const unset = unsetFields(method, path, message);
  const fields = Object.keys(message).flatMap((key) => {
    const given = message[key];
    const inField = (inner: Buffer) => path.wrap(lengthDelimited(unset.get(key)?.number ?? 0, inner));
    const readField = (decoded: unknown) => (path.read(decoded) as Record<string, unknown> | undefined)?.[key];
    let shape: Shape | undefined;
    if (Array.isArray(given)) {
      const of = unset.has(key) && shapeOf(method, unset.get(key)?.value, {
        place: (item) => path.place({ ...message, [key]: [item] }),
        read: (decoded) => (readField(decoded) as unknown[] | undefined)?.[0],
        wrap: inField,
      }, depth + 1);
      shape = of ? { kind: 'list', of } : undefined;
    } else {
      const placeField = (v: unknown) => path.place({ ...message, [key]: v });
      shape = shapeOf(method, given === undefined ? unset.get(key)?.value : given, { place: placeField, read: readField, wrap: inField }, depth + 1);
    }
    return shape ? [[key, shape] as const] : [];
  });
  return { kind: 'message', fields: Object.fromEntries(fields) };
}

const isMethod = (value: unknown): value is MethodDefinition<unknown, unknown> =>
  typeof (value as MethodDefinition<unknown, unknown>)?.path === 'string' &&
  typeof (value as MethodDefinition<unknown, unknown>).requestSerialize === 'function';

/** Every unary RPC exported by libs/contracts, with the shape of its request. */
export function contractRpcs(): Rpc[] {
  const values = (of: unknown): unknown[] => (of && typeof of === 'object' ? Object.values(of) : []);
  // contracts → its modules (financeV1, ...) → their exports → a service definition's methods.
  const methods = values(contracts).flatMap(values).flatMap(values).filter(isMethod);
  return methods
    .filter((method) => !method.requestStream && !method.responseStream)
    .map((definition) => {
      const root: Path = { place: (v) => v, read: (d) => d, wrap: (inner) => inner };
      const request = shapeOf(definition, definition.requestDeserialize(Buffer.alloc(0)), root, 0);
      if (request?.kind !== 'message') throw new Error(`cannot tell what ${definition.path} takes`);
      return { path: definition.path, service: definition.path.split('.')[0].slice(1), definition, request };
    });
}
