import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { notificationsV1 } from '@libs/contracts';
import type { Actor } from '@libs/grpc';
import { notFound } from '@libs/validation';
import { mayManage } from '../access';
import { positionOf } from '../keyset-position';

export interface EndpointRow {
  id: string;
  owner_id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  previous_secret_expires_at: Date | null;
  /** created_at as the list's keyset position. */
  position: string;
}

export const ENDPOINT_COLUMNS = `e.id, e.owner_id, e.url, e.description, e.event_types, e.enabled, e.disabled_reason, e.version,
  e.created_at, e.updated_at, ${positionOf('e.created_at')} AS position,
  (SELECT max(s.expires_at) FROM endpoint_secrets s WHERE s.endpoint_id = e.id AND s.expires_at > now()) AS previous_secret_expires_at`;

export const toEndpoint = (row: EndpointRow): notificationsV1.Endpoint => ({
  id: row.id,
  url: row.url,
  description: row.description ?? '',
  eventTypes: row.event_types,
  enabled: row.enabled,
  ownerId: row.owner_id,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  disabledReason: row.disabled_reason ?? '',
  previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? '',
  version: row.version,
});

/** The endpoint, if it exists and the actor may manage it: someone else's is as absent as a missing one. */
export async function findOwnedEndpoint(
  sequelize: Sequelize,
  actor: Actor,
  id: string,
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<EndpointRow> {
  const [row] = await sequelize.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM endpoints e WHERE e.id = $1${options.lock ? ' FOR UPDATE OF e' : ''}`,
    { bind: [id], type: QueryTypes.SELECT, transaction: options.transaction },
  );
  if (!row || !mayManage(actor, row.owner_id)) throw notFound('webhook endpoint');
  return row;
}

/** The secrets an endpoint signs with now: the current one first, then the previous one during a rotation. */
export const SIGNING_SECRETS = `ARRAY(SELECT s.secret FROM endpoint_secrets s
  WHERE s.endpoint_id = e.id AND (s.expires_at IS NULL OR s.expires_at > now()) ORDER BY s.expires_at NULLS FIRST)`;
