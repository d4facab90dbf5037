import { EVENT_TYPES, isEventType } from '@libs/contracts';
import { waitFor, type RunningSystem } from '@libs/testing';
import { api, validTransaction } from './http';

/** Walks every page of GET /api/v1/audit with `query` and returns all entries, newest first. */
export async function allAuditEntries(system: RunningSystem, query = '') {
  const entries = [];
  let cursor: string | undefined;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', '500');
    if (cursor) params.set('cursor', cursor);
    const page = await api(system.gatewayUrl, `/api/v1/audit?${params}`, { key: system.keys.admin });
    if (page.status !== 200) throw new Error(`GET /api/v1/audit answered ${page.status}: ${JSON.stringify(page.body)}`);
    entries.push(...page.body.entries);
    cursor = page.body.nextCursor;
  } while (cursor);
  return entries;
}

/** How often each entity id appears in the whole audit log. */
export async function auditCounts(system: RunningSystem): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const entry of await allAuditEntries(system)) {
    for (const id of entry.entityIds as string[]) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Whether an entry is of the gateway's identity area: every run's start writes some (its demo users and keys). */
export const isIdentityEntry = (entry: { action: string }): boolean => isEventType(entry.action) && EVENT_TYPES[entry.action].source === 'identity';

/**
 * Waits until the audit log holds at least `total` entries of the services (finance, scheduling: the identity
 * area's own, which every run's start writes at its own pace, are not counted) and returns how many it holds (a
 * test expects exactly `total`).
 */
export async function waitForAuditTotal(system: RunningSystem, total: number, timeoutMs = 120_000): Promise<number> {
  return waitFor(
    `${total} audit entries`,
    async () => {
      const count = (await allAuditEntries(system)).filter((entry) => !isIdentityEntry(entry)).length;
      return count >= total ? count : undefined;
    },
    timeoutMs,
  );
}

/**
 * Creates `count` transactions, `concurrency` at a time, and returns their ids.
 * Fails on any answer but 201: every mutation must succeed for the user.
 * `onProgress` runs after each one, with how many are done.
 */
export async function createTransactions(
  system: RunningSystem,
  count: number,
  options: { concurrency?: number; onProgress?: (done: number) => void } = {},
): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const created = await api(system.gatewayUrl, '/api/v1/transactions', {
        method: 'POST',
        key: system.keys.bursar,
        body: validTransaction({ notes: `fault test ${next}` }),
      });
      if (created.status !== 201) throw new Error(`POST answered ${created.status}: ${JSON.stringify(created.body)}`);
      ids.push(created.body.id);
      options.onProgress?.(ids.length);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  return ids;
}

/** Waits until the gateway reaches a (re)started service again; a 404 for an unknown id proves finance answers. */
export async function waitForFinance(system: RunningSystem): Promise<void> {
  await waitFor('the gateway to reach finance', async () => {
    const probe = await api(system.gatewayUrl, '/api/v1/transactions/00000000-0000-4000-8000-000000000000', {
      key: system.keys.bursar,
    });
    return probe.status === 404 ? true : undefined;
  }, 30_000);
}

/** Asserts that each id appears exactly once in the audit log. */
export function expectEachOnce(counts: Map<string, number>, ids: string[]): void {
  const wrong = ids.filter((id) => counts.get(id) !== 1).map((id) => `${id}: ${counts.get(id) ?? 0}`);
  if (wrong.length > 0) throw new Error(`not audited exactly once: ${wrong.slice(0, 5).join(', ')} (${wrong.length} in all)`);
}
