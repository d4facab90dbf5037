import { crc32 } from 'node:zlib';
import { FILE_LIMITS } from '@libs/contracts';
import { GrpcStatus, ProblemError } from '@libs/grpc';

/** The types a proof of payment may be, told by content alone (docs/decisions/0020). */
export type FileType = 'application/pdf' | 'image/jpeg' | 'image/png';

/** A refusal the gateway answers with 415 (`unsupported_media_type`, platform/upstreams/grpc-problem.ts). */
export const unsupportedContent = (why: string) =>
  new ProblemError(GrpcStatus.INVALID_ARGUMENT, `the file is not an acceptable PDF, JPEG or PNG: ${why}`, { type: 'unsupported_media_type' });

/** A refusal the gateway answers with 413 (`file_too_large`). */
export const tooLarge = () =>
  new ProblemError(GrpcStatus.INVALID_ARGUMENT, `the file is larger than ${FILE_LIMITS.maxBytes} bytes`, { type: 'file_too_large' });

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** An empty IEND chunk: length 0, type, CRC. A PNG ends with it; anything after it is another file riding along. */
const PNG_END = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
/** Bit depths each PNG colour type allows (PNG specification, 11.2.2). */
const PNG_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Signature and IHDR chunk: what the type is decided from. */
const HEAD_BYTES = 33;
/** How far from the end a PDF's %%EOF may be looked for, and what of the end is kept. */
const TAIL_BYTES = 1024;

function pngHeader(head: Buffer): void {
  if (head.readUInt32BE(8) !== 13 || head.toString('latin1', 12, 16) !== 'IHDR') throw unsupportedContent('a PNG must start with its IHDR header');
  if (crc32(head.subarray(12, 29)) !== head.readUInt32BE(29)) throw unsupportedContent('the PNG header is damaged');
  const width = head.readUInt32BE(16);
  const height = head.readUInt32BE(20);
  const [depth, colour, compression, filter, interlace] = head.subarray(24, 29);
  if (width === 0 || height === 0 || !PNG_DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) {
    throw unsupportedContent('the PNG header is not valid');
  }
  // Read from the header, never decoded: a few KB may declare gigapixels (a decompression bomb).
  if (width * height > FILE_LIMITS.maxPixels) throw unsupportedContent(`the image declares more than ${FILE_LIMITS.maxPixels} pixels`);
}

/** The type the first bytes declare, once the header of that type is checked; a refusal otherwise. */
function typeOf(head: Buffer): FileType {
  if (head.length >= HEAD_BYTES && head.subarray(0, 8).equals(PNG_SIGNATURE)) {
    pngHeader(head);
    return 'image/png';
  }
  // SOI, then a marker segment (APPn, a table, a frame or a comment).
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff && head[3] >= 0xc0 && head[3] !== 0xff) return 'image/jpeg';
  if (/^%PDF-\d\.\d/.test(head.toString('latin1', 0, 8))) return 'application/pdf';
  throw unsupportedContent('its content is of another type');
}

/** Whether the file ends where its format says it ends, with nothing after (bar a PDF's final line break). */
function endsWhole(type: FileType, tail: Buffer): boolean {
  if (type === 'image/png') return tail.length >= PNG_END.length && tail.subarray(-PNG_END.length).equals(PNG_END);
  if (type === 'image/jpeg') return tail.length >= 2 && tail[tail.length - 2] === 0xff && tail[tail.length - 1] === 0xd9;
  return /%%EOF[\r\n]*$/.test(tail.toString('latin1'));
}

/**
 * Checks a file's bytes as they pass, holding only its first and last bytes: the type its start declares (PNG
 * with a valid IHDR within the pixel bound, JPEG, PDF), the size bound, and at the end that the file ends as that
 * type ends (a truncated PDF has no %%EOF; a PNG with a ZIP or a script appended is not a PNG).
 */
export class ContentCheck {
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private type: FileType | undefined;
  size = 0;

  /** Takes the next bytes; throws as soon as they cannot be an acceptable file. */
  take(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > FILE_LIMITS.maxBytes) throw tooLarge();
    if (!this.type) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
      if (this.head.length === HEAD_BYTES) this.type = typeOf(this.head);
    }
    this.tail = Buffer.concat([this.tail, chunk.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
  }

  /** After the last byte: the file's type, or a refusal. */
  finish(): FileType {
    const type = this.type ?? typeOf(this.head);
    if (!endsWhole(type, this.tail)) throw unsupportedContent(`the ${type} does not end as one (truncated, or with something after it)`);
    return type;
  }
}
