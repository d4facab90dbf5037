import type { CursorCodec } from '@libs/cursor';
import type { WriteDeps } from '@libs/outbox';
import type { PremiseDirectory } from './locations/premise-directory';

/** What every scheduling handler needs. */
export interface SchedulingDeps extends WriteDeps {
  /** Signs list cursors and slot tokens. */
  cursors: CursorCodec;
  premises: PremiseDirectory;
}
