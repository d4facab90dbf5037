import type { CursorCodec } from '@libs/cursor';
import type { AddressPolicy, Resolver, RetrySchedule } from '@libs/webhooks';
import type { WriteDeps } from './house';

/** What every handler needs. */
export interface NotificationsDeps extends WriteDeps {
  cursors: CursorCodec;
  /** Where endpoints may point (docs/WEBHOOKS.md, "What is refused"). */
  policy: AddressPolicy;
  /** The system's resolver, or a test's. */
  resolve: Resolver;
  /** The first wait of the retry schedule applies to a new delivery too. */
  schedule: RetrySchedule;
  /** The gateway as integrators reach it, without a trailing slash. */
  publicApiUrl: string;
}
