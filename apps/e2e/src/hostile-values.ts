/** Generated hostile input, shared by the walks over every RPC and every HTTP operation. */
import fc from 'fast-check';

const EMOJI = '😀';

/** Any UTF-16 unit, lone surrogates included. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const printableAscii = fc.integer({ min: 0x20, max: 0x7e }).map((unit) => String.fromCharCode(unit));

/** 100 KB values; built once, so that a run does not spend its time making them. */
export const HUGE_STRINGS = ['x'.repeat(100_000), EMOJI.repeat(50_000), '\u0000'.repeat(100_000), `a${'é'.repeat(99_999)}`];

const SQL = ["'", "''", '"', ';', '--', '/*', "' OR '1'='1", "'; DROP TABLE drugs; --", '%', '_', '\\', '\\%', '$1', '::text', "E'\\x00'"];

/**
 * Strings that have broken services, or could: lone surrogates, emoji at every
 * cut position (a 40-unit cut of 'a' + 30 emoji once killed the reference
 * service), NUL and other control characters, SQL and LIKE metacharacters,
 * numbers out of range, 100 KB; and sometimes a plausible value, so that the
 * other fields of a request reach deeper than the first check.
 */
export function hostileString(plausible: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: anyUnit, maxLength: 20 }),
    fc.tuple(fc.nat(45), fc.nat(45)).map(([letters, emoji]) => `${'a'.repeat(letters)}${EMOJI.repeat(emoji)}`),
    fc.nat(60).map((cut) => EMOJI.repeat(30).slice(0, cut)),
    fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\r\n', '\t', '\u007f', '\u202e', '\ufeff', '\uffff', '\ud800', '\udfff', '%00', '%F0%9F'),
    fc.constantFrom(...SQL),
    fc.constantFrom('-1', '0', '1e3', '1.5', 'NaN', 'Infinity', '99999999999999999999', '0x10', 'true', 'null', '[]', '{}'),
    fc.constantFrom(...HUGE_STRINGS),
    ...(plausible.length > 0 ? [fc.constantFrom(...plausible)] : []),
  );
}

/**
 * Values that can travel in gRPC metadata or an HTTP header (printable ASCII,
 * and Latin-1 for HTTP): long, full of delimiters, forged structure, 8 KB.
 */
export function hostileHeaderValue(options: { latin1?: boolean } = {}): fc.Arbitrary<string> {
  const unit = options.latin1
    ? fc.oneof(printableAscii, fc.integer({ min: 0x80, max: 0xff }).map((u) => String.fromCharCode(u)), fc.constant('\t'))
    : printableAscii;
  return fc.oneof(
    fc.string({ unit, maxLength: 60 }),
    fc.constantFrom('', ' ', '%', '%F0%9F%98', '"', '"1"', 'W/"1"', '*', ',,,', '00-00000000000000000000000000000000-0000000000000000-00'),
    fc.constantFrom('x'.repeat(8_000), `${'a,'.repeat(3_000)}`),
  );
}
