import { recordResponses } from '../platform/http/record-response';

/** The record a finance answer carries (a 500 without it), and how one is sent, with its ETag when versioned. */
export const { returned, sendRecord } = recordResponses('finance');
