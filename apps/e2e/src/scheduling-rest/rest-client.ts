import { DEMO_SCHEDULING_IDS, type Role } from '@libs/contracts';
import { waitFor, type RunningSystem } from '@libs/testing';
import { api, type ApiResponse } from '../http';

/** The demo locations scheduling seeds (apps/scheduling/src/demo-data.ts). */
const DEMO_LOCATION_COUNT = 3;

/** The scheduling service's demo ids, by what the tests use them for. */
export const DEMO = {
  walkIn: DEMO_SCHEDULING_IDS.services.walkIn,
  pharmacist: DEMO_SCHEDULING_IDS.resources.pharmacist,
  /** Open every day 08:00–20:00 (Europe/London), offering walk-ins every 30 minutes with no notice. */
  nurse: DEMO_SCHEDULING_IDS.resources.dutyNurse,
  officer: DEMO_SCHEDULING_IDS.resources.clinicalOfficer,
};

export type Caller = (path: string, options?: Parameters<typeof api>[2]) => Promise<ApiResponse>;

/** Calls the gateway with the demo key of a role; every answer is checked against /openapi.json. */
export const as = (system: RunningSystem, role: Role): Caller => (path, options = {}) =>
  api(system.gatewayUrl, path, { key: system.keys[role], ...options });

/** Scheduling seeds its demo schedules once the reference service answers: waits for its three locations. */
export async function demoLocations(system: RunningSystem): Promise<{ premiseId: string; name: string }[]> {
  return waitFor(
    'the demo schedules',
    async () => {
      const { status, body } = await as(system, 'reader')('/api/v1/scheduling/locations');
      return status === 200 && body.locations.length >= DEMO_LOCATION_COUNT ? body.locations : undefined;
    },
    60_000,
  );
}

/** Follows `nextCursor` to the end, returning every item under `key`. */
export async function everyPage(call: Caller, path: string, key: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const { status, body } = await call(cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path);
    expect(status).toBe(200);
    items.push(...body[key]);
    cursor = body.nextCursor;
  } while (cursor);
  return items;
}

/** A cursor with one character changed: its signature no longer matches. */
export const tampered = (cursor: string) => `${cursor.slice(0, -2)}${cursor.at(-2) === 'A' ? 'B' : 'A'}${cursor.at(-1)}`;

/** The UTC date `days` from today, YYYY-MM-DD. */
export const dateFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The field names of a 400's errors. */
export const fieldsOf = (response: ApiResponse): string[] => (response.body.errors ?? []).map((e: { field: string }) => e.field);
