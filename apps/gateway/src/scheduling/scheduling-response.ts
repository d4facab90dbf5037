import { recordResponses } from '../platform/http/record-response';

/** The record a scheduling answer carries (a 500 without it), and how one is sent, with its ETag. */
export const { returned, sendRecord } = recordResponses('scheduling');

/** A list page as the API shows it: `nextCursor` only while more follow. */
export const nextCursorOf = (nextCursor: string) => (nextCursor ? { nextCursor } : {});
