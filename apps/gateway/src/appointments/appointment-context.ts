import type { schedulingV1 } from '@libs/contracts';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';

/** What the calendar and FHIR renderings name besides the appointment's ids: its service, resource and location. */
export interface AppointmentContext {
  service(id: string): schedulingV1.Service | undefined;
  resource(id: string): schedulingV1.Resource | undefined;
  location(premiseId: string): schedulingV1.Location | undefined;
}

/** The kinds of record a rendering names; only those are fetched. */
export type ContextKind = keyof AppointmentContext;

const EVERY_CONTEXT_KIND: readonly ContextKind[] = ['service', 'resource', 'location'];

/** Fetches `id` into `found` unless it is there already. */
async function once<T>(found: Map<string, T | undefined>, id: string, fetch: (id: string) => Promise<T | undefined>): Promise<void> {
  if (!found.has(id)) found.set(id, await fetch(id));
}

/**
 * Fetches, once each per request, the services, resources and/or locations (`kinds`) the appointments name: at
 * most one call per distinct id. The service has no lookup of several ids in one call (its List RPCs page
 * through everything), so a page costs one call per distinct id. One call at a time: every call takes one of
 * the caller's key's concurrency places (a student has 4), so calls in parallel would turn a page naming
 * several resources into a 429. Appointments keep a service or resource that has since been deactivated; it is
 * still readable, so each is found.
 */
export async function contextOf(
  upstreams: Upstreams,
  appointments: schedulingV1.Appointment[],
  upstream: UpstreamCall,
  kinds: readonly ContextKind[] = EVERY_CONTEXT_KIND,
): Promise<AppointmentContext> {
  const scheduling = upstreams.scheduling;
  const services = new Map<string, schedulingV1.Service | undefined>();
  const resources = new Map<string, schedulingV1.Resource | undefined>();
  const locations = new Map<string, schedulingV1.Location | undefined>();
  for (const appointment of appointments) {
    if (kinds.includes('service')) {
      await once(services, appointment.serviceId, async (id) => (await scheduling.call((c) => c.getService, { id }, upstream)).service);
    }
    if (kinds.includes('resource')) {
      await once(resources, appointment.resourceId, async (id) => (await scheduling.call((c) => c.getResource, { id }, upstream)).resource);
    }
    if (kinds.includes('location')) {
      await once(locations, appointment.locationId, async (premiseId) => (await scheduling.call((c) => c.getLocation, { premiseId }, upstream)).location);
    }
  }
  return {
    service: (id) => services.get(id),
    resource: (id) => resources.get(id),
    location: (premiseId) => locations.get(premiseId),
  };
}
