import type { CursorCodec } from '@libs/cursor';
import type { WriteDeps } from '@libs/outbox';

/** What every finance handler needs. */
export interface FinanceDeps extends WriteDeps {
  cursors: CursorCodec;
}
