/**
 * A key's usage as every gateway instance writes it, in the key's own
 * api_keys row: the statistics (requests, last used) and the limiter's shared
 * counts (migration 0003).
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { SharedUsage } from './rate-limiter';

export interface SharedUsageColumns {
  tat_ms: number | null;
  rate_tat_limit: number | null;
  quota_day: string | null;
  quota_day_requests: string;
}

/** The limiter's shared counts, as numbers and a plain `YYYY-MM-DD` (a pg date would become a local-time Date). */
export const SHARED_USAGE_COLUMNS = `(extract(epoch FROM rate_tat) * 1000)::float8 AS tat_ms, rate_tat_limit, quota_day::text AS quota_day, quota_day_requests`;

export const sharedUsageOf = (row: SharedUsageColumns): SharedUsage => ({
  tatMs: row.tat_ms,
  tatLimit: row.rate_tat_limit,
  day: row.quota_day,
  dayRequests: Number(row.quota_day_requests),
});

/** Requests one instance admitted for a key since its last write. */
export interface KeyUse {
  keyId: string;
  requests: number;
  firstAt: Date;
  lastUsedAt: Date;
  /** The key's rate limit: each request moves its bucket's theoretical arrival time on by 60 s / rateLimit. */
  rateLimit: number;
}

/**
 * In one statement: adds admitted requests to many keys (the lifetime count,
 * the last use, the rate bucket and the day's count), then returns the shared
 * counts of those keys and of `alsoRead`. last_used_at only moves forward, and
 * so does quota_day: an instance whose clock is behind adds to the newer day.
 * A bucket filled under another rate limit starts full.
 */
export async function recordKeyUsage(
  sequelize: Sequelize,
  usage: KeyUse[],
  alsoRead: string[],
  day: string,
): Promise<Map<string, SharedUsage>> {
  const rows = await sequelize.query<{ id: string } & SharedUsageColumns>(
    `WITH used AS (
       SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[], $4::timestamptz[], $5::integer[])
         AS u (id, requests, first_at, last_used_at, rate_limit)
     ), written AS (
       UPDATE api_keys k
          SET request_count = k.request_count + u.requests,
              last_used_at = GREATEST(k.last_used_at, u.last_used_at),
              rate_tat = GREATEST(CASE WHEN k.rate_tat_limit = u.rate_limit THEN k.rate_tat END, u.first_at)
                         + make_interval(secs => u.requests * 60.0 / u.rate_limit),
              rate_tat_limit = u.rate_limit,
              quota_day_requests = CASE WHEN k.quota_day >= $6::date THEN k.quota_day_requests + u.requests ELSE u.requests END,
              quota_day = GREATEST(k.quota_day, $6::date)
         FROM used u
        WHERE k.id = u.id
        RETURNING k.id, k.rate_tat, k.rate_tat_limit, k.quota_day, k.quota_day_requests
     ), counts AS (
       SELECT * FROM written
       UNION ALL
       SELECT id, rate_tat, rate_tat_limit, quota_day, quota_day_requests FROM api_keys WHERE id = ANY($7::uuid[])
     )
     SELECT id, ${SHARED_USAGE_COLUMNS} FROM counts`,
    {
      bind: [
        usage.map((u) => u.keyId),
        usage.map((u) => u.requests),
        usage.map((u) => u.firstAt.toISOString()),
        usage.map((u) => u.lastUsedAt.toISOString()),
        usage.map((u) => u.rateLimit),
        day,
        alsoRead,
      ],
      type: QueryTypes.SELECT,
    },
  );
  return new Map(rows.map((row) => [row.id, sharedUsageOf(row)]));
}
