import { InvalidCursorError, type CursorCodec } from '@libs/cursor';
import { RpcError } from '@libs/grpc';

/** What a slot token names; it says nothing of who may hold the slot. */
export interface SlotKey {
  serviceId: string;
  resourceId: string;
  start: number;
}

// Tokens are signed like cursors, bound to this marker instead of a query: a cursor is never a token.
const TOKEN_BINDING = { slotToken: 1 };

/** Each codec's encoder of tokens: the binding's digest made once per process, not once per slot of a page. */
const tokenEncoders = new WeakMap<CursorCodec, (position: unknown) => string>();

export function encodeSlotToken(cursors: CursorCodec, key: SlotKey): string {
  let encode = tokenEncoders.get(cursors);
  if (!encode) {
    encode = cursors.encoderFor(TOKEN_BINDING);
    tokenEncoders.set(cursors, encode);
  }
  return encode([key.serviceId, key.resourceId, key.start]);
}

/** The slot a token names; a tampered, foreign or malformed token is INVALID_ARGUMENT naming the field. */
export function decodeSlotToken(cursors: CursorCodec, token: string, field = 'slotToken'): SlotKey {
  const invalid = () => RpcError.invalidArgument(field, 'must be a slotToken from a slot search, unchanged');
  if (token === '') throw RpcError.invalidArgument(field, 'is required');
  try {
    const [serviceId, resourceId, start] = cursors.decode<unknown[]>(token, TOKEN_BINDING);
    if (typeof serviceId !== 'string' || typeof resourceId !== 'string' || !Number.isSafeInteger(start)) throw invalid();
    return { serviceId, resourceId, start: start as number };
  } catch (error) {
    if (error instanceof InvalidCursorError || error instanceof SyntaxError || error instanceof TypeError) throw invalid();
    throw error;
  }
}
