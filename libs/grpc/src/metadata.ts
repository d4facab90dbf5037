/** Metadata keys the gateway sets on every call; services trust them because only the gateway is public. */
export const METADATA = {
  requestId: 'x-request-id',
  actorId: 'x-actor-id',
  actorRole: 'x-actor-role',
  fieldErrors: 'x-field-errors',
} as const;
