/**
 * Limits for the keys a test system hands out: tests and the benchmark send
 * thousands of requests, hundreds at once, with one key. Keys that a test
 * registers itself keep their role's defaults, which the limit tests rely on.
 */
const GENEROUS_LIMITS = { rateLimit: 600_000, dailyQuota: 100_000_000, concurrencyLimit: 1_000 };

async function call(url: string, init: RequestInit & { key: string }): Promise<unknown> {
  const { key, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Gives each key generous limits, the way an admin would (PATCH /api/v1/auth/keys/:id). */
export async function raiseKeyLimits(gatewayUrl: string, adminKey: string, keys: string[]): Promise<void> {
  for (const key of keys) {
    // A key's id is found in its owner's list, by the key's visible prefix.
    const { keys: listed } = (await call(`${gatewayUrl}/api/v1/auth/keys`, { key })) as { keys: { id: string; prefix: string }[] };
    const own = listed.find((entry) => key.startsWith(`${entry.prefix}_`));
    if (!own) throw new Error(`no listed key has the prefix of ${key.slice(0, 12)}…`);
    await call(`${gatewayUrl}/api/v1/auth/keys/${own.id}`, { key: adminKey, method: 'PATCH', body: JSON.stringify(GENEROUS_LIMITS) });
  }
}
