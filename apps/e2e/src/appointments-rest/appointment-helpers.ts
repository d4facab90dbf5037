import { randomUUID } from 'node:crypto';
import { DEMO_USER_IDS, type Role } from '@libs/contracts';
import { signUp, verifyEmail, type RunningSystem } from '@libs/testing';
import { api } from '../http';
import { ADMIN, SchedulingCaller, setUpClinic, type ClinicOptions } from '../scheduling/scheduling-client';

/**
 * What the appointment REST tests share: a clinic made over gRPC (its set-up is not what these tests are about),
 * free slots from the REST slot search as a student sees them, and keys of more students.
 */

export const APPOINTMENTS = '/api/v1/appointments';

/** A clinic open around the clock, staffed by the demo clinician, whose rules a test can reach at any hour. */
export async function openClinic(system: RunningSystem, caller: SchedulingCaller, options: Partial<ClinicOptions> & { code: string }) {
  return setUpClinic(system, caller, {
    timeZone: 'Europe/London',
    hours: [[0, '00:00', '24:00']],
    staff: [DEMO_USER_IDS.clinician],
    ...options,
    policy: { checkInWindowMinutes: 1_440, ...options.policy },
  });
}

export type Clinic = Awaited<ReturnType<typeof openClinic>>;

/** Free slots of a clinic from now on, for a day, the nearest first: `GET /api/v1/scheduling/slots` with a student's key. */
export async function freeSlots(system: RunningSystem, clinic: Clinic, from = new Date(), days = 1): Promise<Slot[]> {
  const to = new Date(from.getTime() + days * 86_400_000);
  const query = new URLSearchParams({ service: clinic.serviceId, location: clinic.locationId, from: from.toISOString(), to: to.toISOString() });
  const found = await api(system.gatewayUrl, `/api/v1/scheduling/slots?${query}`, { key: system.keys.student });
  if (found.status !== 200) throw new Error(`slot search answered ${found.status}: ${JSON.stringify(found.body)}`);
  return found.body.slots;
}

export interface Slot {
  slotToken: string;
  start: string;
  end: string;
  resourceId: string;
  locationId: string;
}

/** Another user of a role: an account signed up as anyone does, given the role by the admin. */
export async function anotherUser(system: RunningSystem, role: Role): Promise<{ key: string; userId: string }> {
  const email = `${role}-${randomUUID()}@example.org`;
  const { key } = await signUp(system.gatewayUrl, { email, password: 'a fine password' });
  // Only a proved address may hold a role other than reader.
  await verifyEmail(system, email);
  const me = await api(system.gatewayUrl, '/api/v1/auth/me', { key });
  const userId: string = me.body.id;
  const changed = await api(system.gatewayUrl, `/api/v1/auth/users/${userId}`, { key: system.keys.admin, method: 'PATCH', body: { role } });
  if (changed.status !== 200) throw new Error(`could not make ${userId} a ${role}: ${changed.status}`);
  return { key, userId };
}

export const anotherStudent = (system: RunningSystem) => anotherUser(system, 'student');

export { ADMIN, SchedulingCaller };
