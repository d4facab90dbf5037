import type { appointmentsApi } from '@libs/contracts';

/** The reason given when a block cancels the appointments under it: the provider is unavailable. */
export const BLOCK_CANCELLATION_REASON: appointmentsApi.CancellationReason = 'prov';
